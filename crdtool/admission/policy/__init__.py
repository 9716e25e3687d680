"""ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1) as kube-apiserver 1.36 runs it.

- `model`: policies and bindings with the API's defaults;
- `matching`: matchConstraints / matchResources (rules, selectors, matchPolicy);
- `validator`: a policy's expressions compiled (crdtool.cel.admission) and evaluated for one request;
- `dispatcher`: every policy and binding on one request, params, validationActions, the refusal text;
- `validation`: what the apiserver refuses when a policy or binding is created;
- `stage`: the plugin as a stage of the admission chain.
"""
