"""sgrag: exact multi-constraint retrieval-augmented QA (Structure Guided RAG)."""
