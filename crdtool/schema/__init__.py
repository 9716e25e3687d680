"""The apiserver's rules over CRDs and structural schemas: CRD validation (lint), pruning,
defaulting and value validation. Nothing here prints; every finding is a FieldError.
"""
