"""MiniLM in numpy (what a one-shot `ask` embeds with) against sentence-transformers (what builds use):
the same vectors to float32 rounding, whatever the text's length, script or emptiness."""
from __future__ import annotations

import numpy as np
import pytest

from sgrag.config import EmbedConfig
from sgrag.embed import MiniLMEmbedder, make_embedder
from sgrag.errors import SgragError

TEXTS = ["Which films did Steven Spielberg direct?", "directed by", "", "  ", "héllo wörld ÿ ☃ 中文 😀",
         "United States of America", "a much longer sentence that runs past the token limit " * 40,
         "O'Neill & Sons, Ltd. (1999)", "x"]


@pytest.mark.parametrize("batch", [1, 3, 256])
def test_numpy_minilm_matches_sentence_transformers(batch):
    ref = MiniLMEmbedder(256, "torch").embed(TEXTS)
    got = MiniLMEmbedder(batch, "numpy").embed(TEXTS)
    assert got.shape == ref.shape == (len(TEXTS), 384) and got.dtype == np.float32
    assert np.abs(got - ref).max() < 1e-5
    assert np.allclose(np.linalg.norm(got, axis=1), 1.0, atol=1e-5)


def test_the_runtime_is_checked():
    with pytest.raises(SgragError, match="runtime"):
        make_embedder(EmbedConfig(), runtime="cuda")
