"""Command line: `python -m sgrag import-kg|build|ask|eval|demo|ingest|delete-doc|export|rules`.

Thin wrappers over the public API; errors print one readable line and exit 2. Each
command imports what it needs when it runs, so `--help` and usage errors return at once.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .errors import SgragError
from .types import Progress

ASSETS = Path(__file__).resolve().parent.parent / "assets" / "demo"


class _Bar:
    """One-line progress on stderr: stage, done/total, ETA."""

    def __init__(self, quiet: bool = False):
        self.quiet = quiet
        self.last = 0.0
        self.open_line = False  # a count of a stream was written without its newline

    def end_line(self) -> None:
        if self.open_line:
            sys.stderr.write("\n")
            self.open_line = False

    def __call__(self, p: Progress) -> None:
        if self.quiet:
            return
        now = time.monotonic()
        if p.done < p.total and now - self.last < 0.2:
            return
        self.last = now
        if not p.total:  # a stream of unknown length: what was read so far
            sys.stderr.write(f"\r[{p.stage:>10}] {p.message[:78]:<78}   ")
            sys.stderr.flush()
            self.open_line = True
            return
        pct = 100.0 * p.done / p.total
        eta = f" ETA {p.eta_s:.0f}s" if p.eta_s else ""
        sys.stderr.write(f"\r[{p.stage:>10}] {pct:5.1f}% {p.message[:70]:<70}{eta}   ")
        if p.done >= p.total:
            sys.stderr.write("\n")
        sys.stderr.flush()


def _add_ws(p: argparse.ArgumentParser) -> None:
    p.add_argument("--workspace", "-w", required=True, help="workspace directory")


def build_parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(prog="python -m sgrag", description="Exact multi-constraint RAG (SG-RAG).")
    ap.add_argument("--quiet", "-q", action="store_true", help="no progress output")
    sub = ap.add_subparsers(dest="cmd", required=True)

    p = sub.add_parser("import-kg", help="import a knowledge graph into a workspace")
    _add_ws(p)
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--triples", help="head,relation,tail TSV/CSV (optionally .gz)")
    src.add_argument("--graphml")
    src.add_argument("--json", help="JSON {nodes, edges} or JSONL records")
    p.add_argument("--entities", help="id<TAB>name file (with --triples)")
    p.add_argument("--relations", help="relation<TAB>text file (with --triples)")

    p = sub.add_parser("build", help="build the index (embeddings, GNN, R*-tree, FAISS)")
    _add_ws(p)
    p.add_argument("--path-length", type=int, choices=(1, 2), help="path length l (default: workspace config, 1)")
    p.add_argument("--embed", choices=("minilm", "hash", "openai"), help="label embedding backend")
    p.add_argument("--epochs", type=int, help="GNN training epochs")

    p = sub.add_parser("ask", help="answer a question")
    _add_ws(p)
    p.add_argument("question")
    p.add_argument("--json", action="store_true", help="print the full QueryTrace as JSON")

    p = sub.add_parser("eval", help="evaluate on an ERQA-style CSV (query,answer)")
    _add_ws(p)
    p.add_argument("--queries", required=True)
    p.add_argument("--out", required=True, help="JSONL output, one object per question")
    p.add_argument("--limit", type=int)
    p.add_argument("--oracle", help="oracle CSV (named constraints and exact sets) for the exactness measures")

    p = sub.add_parser("robustness", help="Hit@1 after deleting evidence edges or adding a spurious constraint")
    _add_ws(p)
    p.add_argument("--queries", required=True)
    p.add_argument("--out", required=True, help="directory for the damaged workspace and robustness.json")
    p.add_argument("--deletions", type=int, default=1, help="evidence edges deleted per question (x)")
    p.add_argument("--spurious", action="store_true", help="also add a spurious constraint to each question")
    p.add_argument("--limit", type=int, default=200)
    p.add_argument("--seed", type=int, default=0)

    p = sub.add_parser("demo", help="create and build the demo workspace from assets/")
    _add_ws(p)
    p.add_argument("--force", action="store_true", help="rebuild even if already built")

    p = sub.add_parser("export", help="export the workspace graph")
    _add_ws(p)
    p.add_argument("--out", required=True, help=".graphml or .json")

    p = sub.add_parser("ingest", help="extract documents into the workspace graph and rebuild")
    _add_ws(p)
    p.add_argument("paths", nargs="+")
    p.add_argument("--extractor", choices=("offline", "rules", "llm"), default="offline",
                   help="offline: spaCy parses (English; other scripts use the rules); rules: the rule-based extractor; llm: the endpoint")
    p.add_argument("--no-build", action="store_true", help="skip the index rebuild")

    p = sub.add_parser("delete-doc", help="remove a document and what only it supported")
    _add_ws(p)
    p.add_argument("doc_id")
    p.add_argument("--no-build", action="store_true")

    p = sub.add_parser("config", help="print every setting in effect in a workspace (config.json keeps only "
                                      "what differs from the defaults)")
    _add_ws(p)
    p.add_argument("--changed", action="store_true", help="only the settings config.json changes")

    p = sub.add_parser("rules", help="list the named rules (linking, ranking, narrowing, relaxing) and their state")
    p.add_argument("--workspace", "-w", help="show which rules this workspace switches off (config.json: "
                                             "rules.disabled)")
    p.add_argument("--json", action="store_true", help="print the table as JSON")
    p.add_argument("--markdown", action="store_true", help="print the README's rule table (Markdown)")
    return ap


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    bar = _Bar(args.quiet)
    try:
        return _run(args, bar)
    except SgragError as exc:
        sys.stderr.write(f"\nerror: {exc}\n")
        return 2
    except OSError as exc:  # a workspace path that is a file, too long, or not writable
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"\nerror: {where}{exc.strerror or exc}\n")
        return 2
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted; the last good index is unchanged\n")
        return 130


def _run(args, bar: _Bar) -> int:
    from . import Workspace, import_kg  # light; each command below imports what it needs
    ws_path = args.workspace
    if args.cmd == "rules":
        return _rules(args)
    if args.cmd == "config":
        ws = Workspace(ws_path)
        ws.manifest()  # a clear error when there is no workspace there
        cfg = ws.config()
        print(json.dumps(cfg.overrides() if args.changed else cfg.to_dict(), indent=1, sort_keys=True))
        return 0
    if args.cmd == "import-kg":
        stats = import_kg(ws_path, triples=args.triples, entities=args.entities, relations=args.relations,
                           graphml=args.graphml, json=args.json, progress=bar)
        bar.end_line()
        print(json.dumps({"imported": stats}))
    elif args.cmd == "build":
        from . import Engine
        ws = Workspace(ws_path)
        cfg = ws.config()
        if args.path_length:
            cfg.index.path_length = args.path_length
        if args.embed:
            cfg.embed.backend = args.embed
        if args.epochs is not None:
            cfg.gnn.epochs = args.epochs
        report = Engine.build(ws_path, bar, config=cfg, llm=_llm(cfg, ws))
        ws.save_config(cfg)  # only a configuration that built is kept
        print(json.dumps({k: report[k] for k in ("version", "stats", "paths", "timings_s", "pruning_power")}))
    elif args.cmd == "ask":
        from . import Engine, trace_json
        ws = Workspace(ws_path)
        cfg = ws.config()
        cfg.query.embed_runtime = "numpy"  # one question: no torch import (about 5 s), the same answers
        engine = Engine.open(ws_path, config=cfg, llm=_llm(cfg, ws))
        trace = engine.ask(args.question)
        if args.json:
            print(trace_json(trace))
        else:
            _print_answer(trace)
            _print_notes(trace)
    elif args.cmd == "eval":
        from . import Engine, run_eval
        engine = Engine.open(ws_path)
        report = run_eval(engine, args.queries, args.limit, bar, args.out, oracle_path=args.oracle)
        print(json.dumps(report.summary, indent=1))
    elif args.cmd == "robustness":
        from . import run_robustness
        summary = run_robustness(ws_path, args.queries, args.out, args.deletions, args.spurious, args.limit,
                                 args.seed, bar)
        print(json.dumps(summary, indent=1))
    elif args.cmd == "demo":
        from . import create_demo
        report = create_demo(ws_path, ASSETS, bar, force=args.force)
        print(json.dumps({"demo": str(Workspace(ws_path).path), "version": report.get("version")}))
    elif args.cmd == "export":
        from . import write_graphml, write_json
        g = Workspace(ws_path).source_graph()
        if g is None:
            raise SgragError("the workspace has no graph to export")
        (write_json if args.out.lower().endswith(".json") else write_graphml)(g, args.out)
        print(json.dumps({"exported": args.out, "nodes": g.num_nodes, "edges": g.num_edges}))
    elif args.cmd in ("ingest", "delete-doc"):
        return _documents(args, bar)
    return 0


def _rules(args) -> int:
    """The rule table, with each rule's state in the workspace (all on without one)."""
    from . import Workspace
    from .rules import ALL_ON, rule_table, switches
    state = ALL_ON
    if args.workspace:
        ws = Workspace(args.workspace)
        ws.manifest()  # a clear error when there is no workspace there
        state = switches(ws.config().rules.disabled)
    rows = rule_table(state)
    if args.markdown:
        from .rules import markdown_table
        sys.stdout.write(markdown_table())
        return 0
    if args.json:
        print(json.dumps(rows, indent=1))
        return 0
    width = max(len(r["name"]) for r in rows)
    for r in rows:
        print(f"{r['name']:<{width}}  {r['stage']:<9}  {'on ' if r['on'] else 'OFF'}  {r['description']}")
    off = sum(not r["on"] for r in rows)
    print(f"{len(rows)} rules, {off} off" + (f" in {args.workspace}" if args.workspace else "")
          + "; switch one off in W/config.json: {\"rules\": {\"disabled\": [\"name\"]}}")
    return 0


def _llm(cfg, ws):
    """The configured LLM client, or None when offline (the default)."""
    if not cfg.llm.base_url:
        return None
    from . import make_llm
    return make_llm(cfg.llm, cache_dir=ws.cache_dir / "llm")


def _documents(args, bar) -> int:
    """ingest / delete-doc; rebuilds only when the graph changed; 2 when any file failed."""
    from . import Workspace, delete_document, ingest
    ws = Workspace(args.workspace)
    cfg = ws.config() if ws.exists else None
    if args.cmd == "ingest":
        report = ingest(ws, args.paths, cfg, extractor=args.extractor,
                        llm=_llm(cfg, ws) if cfg else None, progress=bar)
    else:
        ws.manifest()  # a clear error (and nothing created) when there is no workspace
        report = delete_document(ws, args.doc_id)
    print(json.dumps(_plain(report), indent=1, default=str))
    failed = getattr(report, "failed", ())
    if args.cmd == "ingest":
        sys.stderr.write(_file_table(report.files))
    stale = None if report.source_version else ws.stale_index()
    if stale and not args.no_build:
        sys.stderr.write(f"note: the index was built from graph {stale[0]} but the graph is {stale[1]} "
                         "(an earlier ingest did not finish its build): rebuilding\n")
    if (report.source_version or stale) and not args.no_build:
        from . import Engine
        Engine.build(ws.path, bar, llm=_llm(ws.config(), ws))
    if failed:
        for f in failed:
            sys.stderr.write(f"error: {f.path}: {f.reason}\n")
        sys.stderr.write(f"error: {len(failed)} of {len(report.files)} file(s) failed"
                         f"{'' if report.source_version else '; nothing was added'}\n")
        return 2
    return 0


def _file_table(files) -> str:
    """The per-file outcome of an ingest as an aligned plain-text table."""
    rows = [("file", "status", "detail")]
    for f in files:
        detail = ("(below)" if f.status == "failed" else f.reason
                  or (f"{f.chunks} chunks, {f.entities} entities, {f.relations} relations" if f.status == "done" else ""))
        rows.append((Path(f.path).name, f.status, detail))
    width = [max(len(r[i]) for r in rows) for i in range(2)]
    return "".join(f"{r[0]:<{width[0]}}  {r[1]:<{width[1]}}  {r[2]}\n" for r in rows)


def _print_notes(trace) -> None:
    """The trace's notes (fallbacks such as "LLM answer failed ...; offline answer kept")."""
    for note in trace.notes:
        if note != trace.answer.explanation:  # (that one was just printed)
            print(f"Note: {note}")


def _plain(obj):
    from .types import to_jsonable
    return to_jsonable(obj)


SHOW_EXACT = 20  # exact-set members listed by plain `ask` (all are in --json)


def _print_answer(trace) -> None:
    a = trace.answer
    qg = trace.query_graph
    firm = trace.firm_qids
    print(a.headline)
    for c in a.conditions:
        if not c.used or c.corrected:
            print(f"  {c.text}: {c.reason}")
    if a.exact_size > 1:
        print(f"Best guess: {a.text}   (confidence {a.confidence:.2f})")
    else:
        print(f"Answer: {a.text}   (confidence {a.confidence:.2f})")
    if qg:
        print("Constraints: " + "; ".join(
            f"{n.mention.text if n.mention else n.label} -> {n.label}"
            f" ({'answer type, ' if n.mention is not None and n.mention.role == 'type' else ''}"
            f"{'firm' if n.qid in firm else 'soft'}, {n.confidence:.2f})" for n in qg.constraints))
        if qg.answer_type:
            print(f"Answer type: {qg.answer_type}")
    print(a.explanation)
    for e in trace.answer_evidence():
        if e.sentence:
            print(f"  {e.src_label} -[{e.relation}]-> {e.dst_label}: \"{e.sentence}\" ({e.source})")
    if a.tie_break:
        print(a.tie_break)
    if a.exact_size > 1:
        shown = a.exact_set[:SHOW_EXACT]
        which = "joined to every condition, a relation not checked" if a.joined_only else \
            "that satisfy every condition used"
        print(f"Entities {which} (showing {len(shown)} of {a.exact_size:,}; all with --json):")
        for i, r in enumerate(shown, 1):
            print(f"  {i}. {r.label}  score {r.score:.3f}")
    elif not a.exact_size:
        for i, r in enumerate(a.ranked[:5], 1):
            print(f"  {i}. {r.label}  score {r.score:.3f}  satisfies {len(r.satisfied)}/{len(r.satisfied) + len(r.missing)}")
    print(f"({trace.timings_ms.get('total', 0):.1f} ms, index {trace.index_version})")
