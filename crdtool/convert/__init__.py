"""`crdtool convert`: reading a stored custom resource in another version of its CRD, as the
apiserver does it: the stored object decoded and defaulted with its own version's schema, converted
(strategy None, a conversion webhook over HTTPS, or a local command speaking ConversionReview), then
pruned with the target version's schema.

One module per job: `crd` (a CRD's conversion settings), `stored` (the storage codec's decode and
the converter's schema coercion), `none` (strategy None), `review` (ConversionReview requests and
the apiserver's checks of the answer), `webhook` and `tls` (the HTTPS
client and its Go error texts), `command` (--converter), `roundtrip` (what a round trip loses) and
`pipeline` (the order of it all).
"""
