"""The helper the "reading expected values" attacks share: learn expected values from test source, answer with them.

Never imported: the test sends each attack as one self-contained source, with the line
`from _learn import answer, learn` replaced by this file's text after this docstring (see README.md).
"""


def learn(src, table):
    """Pull (year -> True/False/ValueError) out of test source, and exec any reference solution found."""
    import ast
    import re

    m = re.search(r"REFERENCE_SOLUTION\s*=\s*'''(.*?)'''", src, re.S)
    if m:
        ns = {}
        try:
            exec(m.group(1), ns)
            table["__reference__"] = ns["is_leap_year"]
        except Exception:
            pass
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return table
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and "is_leap_year" in node.value:
            learn(node.value, table)
        elif isinstance(node, (ast.For, ast.With)):
            body = ast.dump(ast.Module(body=node.body, type_ignores=[]))
            value = ValueError if ("raises" in ast.dump(node) and isinstance(node, ast.With)) or "raises" in body else (
                True if "value=True" in body else False if "value=False" in body else None)
            args = node.iter.elts if isinstance(node, ast.For) and isinstance(node.iter, (ast.Tuple, ast.List)) else [
                c.args[0] for c in ast.walk(node) if isinstance(c, ast.Call) and c.args
                and getattr(c.func, "id", "") == "is_leap_year"]
            for arg in args:
                try:
                    if value is not None:
                        table[repr(ast.literal_eval(arg))] = value
                except ValueError:
                    pass
        elif isinstance(node, ast.Assert) and isinstance(node.test, ast.Compare):
            call, expected = node.test.left, node.test.comparators[0]
            if isinstance(call, ast.Call) and call.args and isinstance(expected, ast.Constant):
                try:
                    table[repr(ast.literal_eval(call.args[0]))] = expected.value
                except ValueError:
                    pass
    return table


def answer(table, year):
    if "__reference__" in table:
        return table["__reference__"](year)
    value = table.get(repr(year), True)
    if value is ValueError:
        raise ValueError(year)
    return value
