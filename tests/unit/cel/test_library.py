"""The CEL library environment: examples from the Go libraries' doc comments, compiled and evaluated."""

from __future__ import annotations

from typing import Any

import pytest
from cel_expr_python import cel

from crdtool.cel import environment
from crdtool.cel import library as libraries
from crdtool.cel.library import rewrite
from crdtool.cel.protos import selectable_names

ENV = environment.eval_env()
# The checking environment: values typed, so functions the apiserver lacks or misuses do not compile.
CHECK = cel.NewEnv(descriptor_pool=environment.library_pool(), config=libraries.config(),
                   functions=libraries.functions(), variables={"self": cel.Type.DYN})


def run(expr: str, self: Any = None) -> Any:
    return ENV.compile(rewrite(expr).text).eval(data={"self": self}).value()


def error_text(expr: str, self: Any = None) -> str:
    value = ENV.compile(rewrite(expr).text).eval(data={"self": self})
    assert value.type() == cel.Type.ERROR, value.value()
    return str(value.value())


TRUE_EXAMPLES = [
    # lists.go
    "[1, 2, 3].isSorted()", "['a', 'b', 'b', 'c'].isSorted()", "![2.0, 1.0].isSorted()", "[1].isSorted()",
    "[1, 3].sum() == 4", "[1.0, 3.0].sum() == 4.0",
    "[1, 3].min() == 1", "[1, 3].max() == 3", "[1].min() == 1",
    "[1, 2, 2, 3].indexOf(2) == 1", "['a', 'b', 'b', 'c'].lastIndexOf('b') == 2", "[1.0].indexOf(1.1) == -1",
    "[].indexOf('string') == -1",
    # regex.go
    "'abc 123'.find('[0-9]+') == '123'", "'abc 123'.find('xyz') == ''",
    "'123 abc 456'.findAll('[0-9]+') == ['123', '456']", "'123 abc 456'.findAll('[0-9]+', 1) == ['123']",
    "'123 abc 456'.findAll('xyz') == []",
    # urls.go
    "isURL('https://user:pass@example.com:80/path?query=val#fragment')", "isURL('/absolute-path')",
    "!isURL('https://a:b:c/')", "!isURL('../relative-path')",
    "url('/path').getScheme() == ''", "url('https://example.com/').getScheme() == 'https'",
    "url('https://example.com:80/').getHost() == 'example.com:80'", "url('https://[::1]:80/').getHost() == '[::1]:80'",
    "url('https://[::1]/').getHost() == '[::1]'", "url('/path').getHost() == ''",
    "url('https://example.com:80/').getHostname() == 'example.com'",
    "url('https://[::1]:80/').getHostname() == '::1'", "url('https://example.com:80/').getPort() == '80'",
    "url('https://example.com/').getPort() == ''", "url('https://example.com/path').getEscapedPath() == '/path'",
    "url('https://example.com/path with spaces/').getEscapedPath() == '/path%20with%20spaces/'",
    "url('https://example.com').getEscapedPath() == ''",
    "url('https://example.com/path?k1=a&k2=b&k2=c').getQuery() == {'k1': ['a'], 'k2': ['b', 'c']}",
    "url('https://example.com/path?key with spaces=value with spaces').getQuery()"
    " == {'key with spaces': ['value with spaces']}",
    "url('https://example.com/path?').getQuery() == {}",
    # quantity.go
    "isQuantity('1.3G')", "isQuantity('1.3Gi')", "!isQuantity('1,3G')", "isQuantity('10000k')", "!isQuantity('200K')",
    "!isQuantity('Three')",
    # the library's comment has `isQuantity('Mi')` false, but ParseQuantity's scanner reads a number
    # without digits as 0, and `Mi` is a suffix: Go's code accepts it
    "isQuantity('Mi')", "sign(quantity('Mi')) == 0",
    "quantity('50000000G').isInteger()", "quantity('50k').isInteger()",
    "!quantity('9999999999999999999999999999999999999G').isInteger()", "quantity('50k').asInteger() == 50000",
    "quantity('50k').sub(20000).asApproximateFloat() == 30000.0",
    "quantity('50k').add(quantity('20k')) == quantity('70k')", "quantity('50k').add(20) == quantity('50020')",
    "quantity('50k').sub(quantity('20k')) == quantity('30k')", "quantity('50k').sub(20000) == quantity('30k')",
    "quantity('50k').add(20).sub(quantity('100k')).sub(-50000) == quantity('20')",
    "quantity('200M').compareTo(quantity('0.2G')) == 0", "quantity('50M').compareTo(quantity('50Mi')) == -1",
    "quantity('50Mi').compareTo(quantity('50M')) == 1", "quantity('150Mi').isGreaterThan(quantity('100Mi'))",
    "!quantity('50Mi').isGreaterThan(quantity('100Mi'))", "quantity('50M').isLessThan(quantity('100M'))",
    "quantity('1Gi').isGreaterThan(quantity('1M'))", "sign(quantity('-1')) == -1",
    # ip.go / cidr.go
    "isIP('192.168.0.1')", "!isIP('192.168.0.1.0')", "!isIP('::ffff:1.2.3.4')", "ip.isCanonical('127.0.0.1')",
    "!ip.isCanonical('2001:db8:0:0:0:0:0:1')", "ip('192.168.0.1').family() == 4", "ip('::1').family() == 6",
    "ip('127.0.0.1').isLoopback()", "ip('0.0.0.0').isUnspecified()", "ip('224.0.0.1').isLinkLocalMulticast()",
    "ip('ff02::1').isLinkLocalMulticast()", "ip('169.254.169.254').isLinkLocalUnicast()",
    "ip('fe80::1').isLinkLocalUnicast()", "ip('192.168.0.1').isGlobalUnicast()",
    "!ip('255.255.255.255').isGlobalUnicast()", "ip('192.168.0.1') == ip('192.168.0.1')",
    "isCIDR('192.168.0.0/16')", "!isCIDR('192.168.0.0')", "cidr('192.168.0.0/24').containsIP(ip('192.168.0.1'))",
    "!cidr('192.168.0.0/24').containsIP(ip('192.168.1.1'))", "cidr('192.168.0.0/24').containsIP('192.168.0.1')",
    "cidr('192.168.0.0/24').containsCIDR(cidr('192.168.0.0/25'))",
    "cidr('192.168.0.0/24').containsCIDR('192.168.0.0/25')", "!cidr('192.168.0.0/24').containsCIDR('10.0.0.0/8')",
    "cidr('192.168.0.0/24').ip() == ip('192.168.0.0')", "cidr('192.168.1.5/24').masked() == cidr('192.168.1.0/24')",
    "cidr('192.168.0.0/16').prefixLength() == 16", "cidr('::1/128').ip().family() == 6",
    # semverlib.go
    "isSemver('1.0.0')", "!isSemver('hello')", "!isSemver('v1.0')", "isSemver('v1.0', true)",
    "isSemver('01.01.01', true)", "semver('v1.0.0', true) == semver('1.0.0')", "semver('1.0', true) == semver('1.0.0')",
    "semver('1.2.3').major() == 1", "semver('1.2.3').minor() == 2", "semver('1.2.3').patch() == 3",
    "semver('1.2.3').compareTo(semver('1.2.3')) == 0", "semver('1.2.3').compareTo(semver('2.0.0')) == -1",
    "semver('1.2.3').compareTo(semver('0.1.2')) == 1", "semver('1.0.0-alpha').isLessThan(semver('1.0.0'))",
    "semver('1.0.0-alpha.10').isGreaterThan(semver('1.0.0-alpha.9'))",
    # format.go: validate gives an optional list of errors, none when the value is valid
    "!format.dns1123Label().validate('my-label-name').hasValue()",
    "!format.dns1123Subdomain().validate('apiextensions.k8s.io').hasValue()",
    "!format.dns1035Label().validate('my-label-name').hasValue()",
    "!format.qualifiedName().validate('apiextensions.k8s.io/v1beta1').hasValue()",
    "!format.dns1123LabelPrefix().validate('my-label-prefix-').hasValue()",
    "!format.dns1123SubdomainPrefix().validate('mysubdomain.prefix.-').hasValue()",
    "!format.dns1035LabelPrefix().validate('my-label-prefix-').hasValue()",
    "!format.uri().validate('http://example.com').hasValue()",
    "!format.uuid().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()",
    "!format.byte().validate('aGVsbG8=').hasValue()", "!format.date().validate('2021-01-01').hasValue()",
    "!format.datetime().validate('2021-01-01T00:00:00Z').hasValue()",
    "format.dns1123Label().validate('Not_Valid').value().size() == 1",
    # the strfmt checks and url.ParseRequestURI (format.go), not Python's looser parsers
    "format.uri().validate('example.com').value() == ['parse \"example.com\": invalid URI for request']",
    "format.uri().validate('https://exa%zzmple.com/').hasValue()",
    "format.date().validate('20210101').hasValue()", "format.date().validate('2021-02-30').hasValue()",
    "format.datetime().validate('2021-01-01T00:00:00+01').hasValue()",
    "!format.datetime().validate('2021-01-01t00:00:00.5z').hasValue()",
    "format.uuid().validate('{123e4567-e89b-12d3-a456-426614174000}').hasValue()",
    "format.uuid().validate('urn:uuid:123e4567-e89b-12d3-a456-426614174000').hasValue()",
    # format.named: an optional format, none for a name the library does not have (format.go's cases)
    "format.named('dns1123Label').hasValue()", "!format.named('unknown').hasValue()",
    "format.named('dns1123Subdomain').value().validate('A_B').hasValue()",
    "!format.named('labelValue').value().validate('my-label').hasValue()",
    "format.named('dns1123Label').value() == format.dns1123Label()",
    "format.named('uri').value().validate(format.named('x').hasValue() ? 'a' : 'http://b').hasValue() == false",
    "format.dns1123Label() .validate ( 'Not_Valid' ) .value().size() == 1",
    "'format.named(x).validate(y)'.size() == 27",
    # ext.Sets
    "sets.contains([1, 2, 3, 4], [2, 3])", "!sets.contains([1, 2, 3], [4])", "sets.equivalent([1, 2, 2], [2, 1])",
    "sets.intersects([1, 2], [2, 3])", "!sets.intersects([1], [])",
    # ext.Lists version 3
    "[1, 2, 3, 4].slice(1, 3) == [2, 3]", "[1, [2, 3], [4]].flatten() == [1, 2, 3, 4]",
    "[1, [2, [3, 4]]].flatten() == [1, 2, [3, 4]]", "[1, [2, [3, [4]]]].flatten(2) == [1, 2, 3, [4]]",
    "[3, 2, 1].sort() == [1, 2, 3]", "['b', 'c', 'a'].sort() == ['a', 'b', 'c']",
    "lists.range(5) == [0, 1, 2, 3, 4]", "[5, 3, 1, 2].reverse() == [2, 1, 3, 5]",
    "[1, 2, 2, 3, 3, 3].distinct() == [1, 2, 3]",
    # ext.Strings version 2
    "'hello'.charAt(1) == 'e'", "'hello'.charAt(5) == ''", "'hello mellow'.indexOf('') == 0",
    "'hello mellow'.indexOf('ello') == 1", "'hello mellow'.indexOf('ello', 6) == 7",
    "'hello mellow'.lastIndexOf('ello') == 7", "'hello mellow'.lastIndexOf('ello', 6) == 1",
    "'TacoCat'.lowerAscii() == 'tacocat'", "'TacoCat'.upperAscii() == 'TACOCAT'",
    "'hello hello'.replace('he', 'we') == 'wello wello'", "'hello hello'.replace('he', 'we', 1) == 'wello hello'",
    "'hello hello hello'.split(' ') == ['hello', 'hello', 'hello']",
    "'hello hello hello'.split(' ', 2) == ['hello', 'hello hello']", "'tacocat'.substring(4) == 'cat'",
    "'tacocat'.substring(0, 4) == 'taco'", "'  \\ttrim\\n    '.trim() == 'trim'",
    "['hello', 'mellow'].join() == 'hellomellow'", "['hello', 'mellow'].join(' ') == 'hello mellow'",
    "'%s is %d years, %.2f%%'.format(['x', 3, 1.5]) == 'x is 3 years, 1.50%'",
    "strings.quote('single-quote with \"double quote\"') == '\"single-quote with \\\\\"double quote\\\\\"\"'",
    # cel-go v0.26.1 ext/strings_test.go: offsets as indexOfOffset and lastIndexOfOffset take them
    "'tacocat'.lastIndexOf('', 3) == 3", "'tacocat'.lastIndexOf('a', 3) == 1", "'tacocat'.lastIndexOf('a', 30) == -1",
    "'ta©o©αT'.lastIndexOf('©', 3) == 2", "'ta©o©αT'.lastIndexOf('©α', 4) == 4",
    "'bananananana'.lastIndexOf('nana', 7) == 6", "'hello wello'.lastIndexOf('elbo room!!!') == -1",
    "'tacocat'.lastIndexOf('') == 7", "''.lastIndexOf('@@') == -1",
    "'tacocat'.lastIndexOf('t', 6) == 6", "'tacocat'.lastIndexOf('t', 7) == -1",  # an offset at the end finds nothing
    "'tacocat'.indexOf('', 30) == 30", "'tacocat'.indexOf('', -1) == -1", "'tacocat'.lastIndexOf('', -4) == -4",
    "'tacocat'.indexOf('a', 30) == -1", "'tacocat'.indexOf('a', 7) == -1",
    # strings.quote escapes CEL's escape sequences only
    "strings.quote('a\\x01\\x7f') == '\"a\\x01\\x7f\"'", "strings.quote('\\a\\v') == '\"\\\\a\\\\v\"'",
]


@pytest.mark.parametrize("expr", TRUE_EXAMPLES)
def test_documented_examples(expr: str) -> None:
    assert run(expr) is True

#: AsInt64 works on Go's form of a quantity: a negative scale (`1000m`, `1.0`) or an inf.Dec (more
#: than 18 digits, a binary suffix past its precision) is no integer, whole or not; sums keep the form.
QUANTITY_FORMS = [
    "quantity('1e3').isInteger()", "quantity('1Ti').isInteger()", "quantity('123456789012345678').isInteger()",
    "!quantity('1000m').isInteger()", "!quantity('1.0').isInteger()", "!quantity('1Pi').isInteger()",
    "!quantity('9223372036854775807').isInteger()", "!quantity('1e999999999').isInteger()",
    "!quantity('1').add(quantity('500m')).sub(quantity('500m')).isInteger()",
    "quantity('1').add(quantity('500m')).sub(quantity('500m')).compareTo(quantity('1')) == 0",
    "quantity('1k').sub(quantity('500')).asInteger() == 500", "quantity('1.0').compareTo(quantity('1')) == 0",
    "quantity('1e999999999').isGreaterThan(quantity('1e-999999999'))",
]


@pytest.mark.parametrize("expr", QUANTITY_FORMS)
def test_quantity_integers_follow_gos_form(expr: str) -> None:
    assert run(expr) is True


def test_sum_of_durations() -> None:
    assert run("[duration('1m'), duration('1s')].sum() == duration('1m1s')") is True


@pytest.mark.parametrize("expr", [
    "self.sum() == 6", "self.isSorted() == false", "self.max() == 3", "self.indexOf(2) == 2",
    "self.sort() == [1, 2, 3]", "sets.contains(self, [1])", "self.slice(0, 1) == [3]",
])
def test_dynamic_receivers(expr: str) -> None:
    """Rules are evaluated with `self` as dyn over plain Python values."""
    assert run(expr, [3, 1, 2]) is True


@pytest.mark.parametrize(("expr", "message"), [
    ("[].min()", "min called on empty list"),
    ("quantity('200K')", "unable to parse quantity's suffix"),
    ("quantity('Three')",
     "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("quantity('9999999999999999999999999999999999999G').asInteger()", "cannot convert value to integer"),
    ("quantity('1000m').asInteger()", "cannot convert value to integer"),
    ("quantity('1.2.3')",  # Go's scanner, not the regular expression its error quotes
     "quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'"),
    ("url('../relative-path')", 'URL parse error during conversion from string: parse "../relative-path": '
                                "invalid URI for request"),
    ("ip('1.2.3')", 'IP Address "1.2.3" parse error during conversion from string: ParseAddr("1.2.3"): '
                    "IPv4 address too short"),
    ("semver('Three')", "No Major.Minor.Patch elements found"),
    ("[1, [2]].flatten(-1)", "level must be non-negative"),
    ("[1, 2].slice(2, 1)", "cannot slice(2, 1), start index must be less than or equal to end index"),
    ("'abc'.substring(4)", "index out of range: 4"),
    ("'tacocat'.lastIndexOf('a', -1)", "index out of range: -1"),
    ("'tacocat'.indexOf('a', -1)", "index out of range: -1"),
    ("'tacocat'.substring(1, 50)", "index out of range: 50"),
    ("'tacocat'.substring(49, 50)", "index out of range: 49"),
    ("'tacocat'.substring(4, 3)", "invalid substring range. start: 4, end: 3"),
    ("'tacocat'.substring(40, 3)", "invalid substring range. start: 40, end: 3"),  # checked before the range
    ("'abc'.find('(')", "Illegal regex"),
    # cel-go v0.26.1 ext/formatting_test.go: %f and %e take doubles (and the strings NaN, Infinity, -Infinity)
    ("'%f'.format([dyn(1)])", "error during formatting: fixed-point clause can only be used on doubles, was given int"),
    ("'%e'.format([dyn(null)])",
     "error during formatting: scientific clause can only be used on doubles, was given null_type"),
])
def test_runtime_errors_carry_go_texts(expr: str, message: str) -> None:
    assert message in error_text(expr)


LACKING = ["math.greatest(1, 2)", "'abc'.reverse()", "base64.encode(b'a')", "[true].sum()", "quantity(1)",
           "ip('1.2.3.4').isLessThan(ip('1.2.3.5'))", "semver('1.0.0').isGreaterThan(quantity('1'))"]


@pytest.mark.parametrize("expr", LACKING)
def test_functions_the_apiserver_lacks_do_not_compile(expr: str) -> None:
    with pytest.raises(Exception, match="undeclared reference|no matching overload"):
        CHECK.compile(rewrite(expr).text)


def test_type_errors_name_the_apiserver_types() -> None:
    with pytest.raises(Exception, match=r"\(net\.IP, kubernetes\.Quantity\)"):
        CHECK.compile("ip('1.2.3.4').isLessThan(quantity('1'))")


def test_descriptor_files_declare_the_opaque_types() -> None:
    names = {f"{f.package}.{m.name}" for f in libraries.descriptor_files() for m in f.message_type}
    assert names == {"net.IP", "net.CIDR", "kubernetes.URL", "kubernetes.Quantity", "kubernetes.Semver",
                     "kubernetes.NamedFormat"}


def _checked(env: cel.Env, expr: str) -> str:
    """What checking `expr` in `env` gives: its result type or the error's text."""
    try:
        return str(env.compile(rewrite(expr).text).return_type())
    except RuntimeError as err:
        return str(err)


@pytest.mark.parametrize("expr", [*TRUE_EXAMPLES, *LACKING, "ip('1.2.3.4').isLessThan(quantity('1'))",
                                  "self.charAt(1) == 'a'", "'a'.charAt('b')", "self.isSorted(1)"])
def test_declaring_only_the_functions_an_expression_names_checks_it_alike(expr: str) -> None:
    narrowed = cel.NewEnv(descriptor_pool=environment.library_pool(), config=libraries.config(),
                          functions=libraries.functions_named(selectable_names([expr])),
                          variables={"self": cel.Type.DYN})
    assert _checked(narrowed, expr) == _checked(CHECK, expr)


def test_functions_are_narrowed_to_those_named() -> None:
    # ip(), ip.isCanonical() and the three functions format.named() and validate() are rewritten to call
    assert len(libraries.functions_named(frozenset({"ip", "isCanonical"}))) == 5
    assert len(libraries.functions_named(frozenset({"self", "size"}))) == 3


def test_format_calls_are_rewritten_innermost_first_from_the_syntax_tree() -> None:
    from crdtool.cel.library.format import rewrite

    named = "(__formatKnown('uri') ? optional.of(__formatNamed('uri')) : optional.none())"
    errors = f"__formatErrors({named}.value(), self.s)"
    assert rewrite("format.named('uri').value().validate(self.s).hasValue()").text == \
        f"({errors}.size() == 0 ? optional.none() : optional.of({errors})).hasValue()"
    for untouched in ["self.validate(1, 2)", "'format.named(1)'", "other.named('x')", "format.named(", "named(1)"]:
        assert rewrite(untouched).text == untouched
