"""Printer columns: Kubernetes JSONPath, the apiserver's Table conversion, kubectl get's printing."""
