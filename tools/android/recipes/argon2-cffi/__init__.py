"""argon2-cffi, the release pyproject.toml pins (>=23.1): pure Python over
argon2-cffi-bindings. Overrides python-for-android 2026.5.9's own recipe, which builds 20.1.0
(older defaults than the RFC 9106 profile net/relay/_accounts.py relies on)."""

from pythonforandroid.recipe import PyProjectRecipe


class Argon2CffiRecipe(PyProjectRecipe):
    name = "argon2-cffi"
    version = "25.1.0"
    url = (
        "https://files.pythonhosted.org/packages/source/a/argon2_cffi/argon2_cffi-{version}.tar.gz"
    )
    depends = ["argon2-cffi-bindings"]  # noqa: RUF012 (p4a reads lists)
    call_hostpython_via_targetpython = False


recipe = Argon2CffiRecipe()
