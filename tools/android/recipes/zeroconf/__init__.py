"""zeroconf, the release pyproject.toml pins (>=0.132: the asyncio API net/discovery.py uses).
Overrides python-for-android 2026.5.9's own recipe, which builds 0.24.5. Built as pure Python:
SKIP_CYTHON leaves out the optional compiled speedups."""

from pythonforandroid.recipe import PyProjectRecipe


class ZeroconfRecipe(PyProjectRecipe):
    name = "zeroconf"
    version = "0.154.0"
    url = "https://files.pythonhosted.org/packages/source/z/zeroconf/zeroconf-{version}.tar.gz"
    depends = ["setuptools", "ifaddr"]  # noqa: RUF012 (p4a reads lists)
    call_hostpython_via_targetpython = False

    def get_recipe_env(self, arch, **kwargs):
        env = super().get_recipe_env(arch, **kwargs)
        env["SKIP_CYTHON"] = "1"
        return env


recipe = ZeroconfRecipe()
