"""The Python examples of the package's README and of the repository's run as written and print
what the READMEs say."""

import ast
import contextlib
import io
import re

import pytest

from conftest import REPO


def python_blocks(path):
    return re.findall(r"```python\n(.*?)```", path.read_text(), re.S)


@pytest.mark.parametrize("readme", ["bindings/python/README.md", "README.md"])
def test_readme_example_prints_both_containers_with_the_new_image(readme):
    blocks = python_blocks(REPO / readme)
    assert len(blocks) == 1, "the README has one Python example"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(blocks[0], readme, "exec"), {})
    containers = ast.literal_eval(out.getvalue().strip())
    assert containers == [{"name": "app", "image": "app:2"}, {"name": "log", "image": "log:1"}]
