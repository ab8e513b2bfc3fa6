"""UI helpers of the sgrag Streamlit app: session keys, background jobs, render_* helpers.

Pages (``pages/*.py``) stay thin: widgets -> sgrag API -> a ``render_*`` helper from here.
"""
