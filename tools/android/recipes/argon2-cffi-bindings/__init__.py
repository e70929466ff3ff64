"""argon2-cffi-bindings: the CFFI extension over libargon2's C sources (in its sdist) that
argon2-cffi >= 21 calls. python-for-android 2026.5.9 has no recipe for it."""

from pythonforandroid.recipe import PyProjectRecipe


class Argon2CffiBindingsRecipe(PyProjectRecipe):
    name = "argon2-cffi-bindings"
    version = "25.1.0"
    url = (
        "https://files.pythonhosted.org/packages/source/"
        "a/argon2_cffi_bindings/argon2_cffi_bindings-{version}.tar.gz"
    )
    depends = ["setuptools", "cffi"]  # noqa: RUF012 (p4a reads lists)
    hostpython_prerequisites = ["cffi>=2.0.0", "setuptools-scm"]  # noqa: RUF012 (p4a reads lists)
    call_hostpython_via_targetpython = False

    def get_recipe_env(self, arch, **kwargs):
        env = super().get_recipe_env(arch, **kwargs)
        # x86 SSE2 code paths do not apply to ARM; the portable reference C is built instead
        env["ARGON2_CFFI_USE_SSE2"] = "0"
        return env


recipe = Argon2CffiBindingsRecipe()
