"""crdtool: what kube-apiserver would do with your CRDs and custom resources, without a cluster."""

__version__ = "0.1.0"

#: The Kubernetes release whose apiserver behaviour crdtool reproduces.
KUBE_VERSION = "1.36"
