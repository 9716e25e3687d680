"""Admission: what kube-apiserver 1.36 runs between decoding an object and storing it.

`chain` is the seam: the request's attributes (`chain.Attributes`), a stage's answer
(`chain.Verdict`), the two kinds of stage (`chain.MutatingStage`, `chain.ValidatingStage`) and the
chain that runs them in the apiserver's plugin order (`chain.Chain`). Each admission plugin crdtool
reproduces is a module here that builds its stages from the inputs (`chain.STAGE_BUILDERS`).
"""
