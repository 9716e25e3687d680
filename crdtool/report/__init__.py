"""Renderers of Results: human text, kubectl's text, and JSON for machines. No Kubernetes rules here."""
