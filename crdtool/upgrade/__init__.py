"""Upgrade safety (`crdtool lint --against OLD`): what replacing an old CRD by a new one breaks for
the objects already stored and the clients already written, beyond what the apiserver refuses.

pairing    reads the old CRDs (files, folders, `REV:path` from git) and pairs them by metadata.name
crd_diff   compares two CRDs version by version: served versions, subresources, storage version
schema_diff walks two openAPIV3Schema trees in parallel
rules      the rule table (codes, severities, consequences) and Change -> Finding
check      runs the apiserver's update validation and the comparison for each pair

See rules.py for the table of rule codes.
"""
