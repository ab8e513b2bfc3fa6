"""Every ``st.session_state`` key the app uses, declared once (no string literals in pages)."""
from __future__ import annotations

# workspace picker (sidebar)
WORKSPACE = "ws"  # selected workspace directory name; also its URL query parameter (?ws=name)
NEW_WS_NAME = "sg.new_ws_name"
DELETE_WS_CONFIRM = "sg.delete_ws_confirm"
FLASH = "sg.flash"  # one-shot message shown after a rerun: (kind, text)

# Ask
QUESTION = "ask.question"
EXAMPLE = "ask.example"
ASKED = "ask.asked"  # the asking.Asked the page answers (form, URL, history or a link correction)
URL_READ = "ask.url_read"  # the session's first Ask run took ?q= from the URL
TRACE = "ask.trace"  # the QueryTrace shown, for SHOWN
SHOWN = "ask.shown"  # (workspace identity, Asked) that TRACE (or ASK_ERROR) answers
ASK_ERROR = "ask.error"  # the one-line error asking SHOWN gave
OVERRIDE_PREFIX = "ask.override."  # + mention index: selectbox of a mention's link
LINK_SEARCH = "ask.search."  # + mention index: search box of a mention's link (render_normalization, key "ask")
MATCH_PICK = "ask.match_pick"
TRACE_TAB = "ask.tab"  # + key: the detail tab the user is on (kept across reruns)
SUBGRAPH_CAP = "ask.subgraph_cap"
ASK_PREFILL = "ask.prefill"  # set by Explore's "open in Ask"
HISTORY_PICK = "ask.history."  # + index: a question of the sidebar history

# Explore
EXPLORE_QUERY = "explore.query"
EXPLORE_PICK = "explore.pick"
EXPLORE_DEPTH = "explore.depth"
EXPLORE_RELATIONS = "explore.relations"
EXPLORE_MAX = "explore.max_nodes"
EXPLORE_NODE = "explore.node"  # node id shown (may be set from Ask)

# Ingest
KG_UPLOAD = "ingest.kg_upload"
KG_ENTITIES = "ingest.kg_entities"
KG_RELATIONS = "ingest.kg_relations"
DOC_UPLOAD = "ingest.doc_upload"
EXTRACTOR = "ingest.extractor"
INGEST_TAB = "ingest.tab"  # the tab the user is on (kept across reruns and uploads)

# Evaluate
EVAL_SOURCE = "eval.source"
EVAL_UPLOAD = "eval.upload"
EVAL_ORACLE = "eval.oracle"
EVAL_LIMIT = "eval.limit"
EVAL_ROW = "eval.row"
EVAL_FILTER = "eval.filter"

# Settings
API_KEY = "settings.api_key"  # kept in the session only, never written to disk
SETTINGS_FORM = "settings.form"
RULES_FORM = "settings.rules_form"

# live job panels: True while the page polls a running job (a full rerun follows its end)
BUILD_POLLING = "build.polling"
INGEST_POLLING = "ingest.polling"
EVAL_POLLING = "eval.polling"
WORKSPACE_KEPT = "sg.workspace_kept"  # the session's workspace (the selector's own state is per page)
WORKSPACE_MISSING = "sg.ws_missing"  # a ?ws= name no workspace has, reported until another is chosen
WORKSPACE_NEXT = "sg.workspace_next"  # workspace to select on the next run (set after create/delete)
DEMO_POLLING = "demo.polling"
LOAD_POLLING = "load.polling"
BUILD_WAIT_POLLING = "build.wait_polling"  # a page waiting for the first build of its workspace
LOAD_RETRY = "load.retry"  # retry loading an index that failed to load
