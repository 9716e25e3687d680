"""admissionregistration.k8s.io: the kinds crdtool validates (policies and their bindings)."""
