"""The apps' modules import each other without cycles, but for the few deliberate ones listed
here: a service that queues a Celery task and the task that runs the service. Those imports are
made inside the functions (never when the module loads), and the module docstring of the task
module says why.

The graph is read from the source (``ast``): every ``import`` and ``from … import`` of an app
module, at module level or inside a function, except those under ``if TYPE_CHECKING:``. A
``from package import name`` counts as an import of the submodule when ``name`` is one, else of
the package. Loading a submodule loads its parent package first; that is not counted (every
package that re-exports its submodules would otherwise be a cycle).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("accounts", "core", "games", "puzzles", "tutorials", "config")

# (importer, imported): made inside a function, explained in the task module's docstring.
DELIBERATE = {
    ("accounts.services", "accounts.tasks"),
    ("accounts.tasks", "accounts.services"),
    ("games.queueing", "games.tasks"),
    ("games.tasks", "games.analysis"),
    ("games.tasks", "games.game_analysis"),
    ("games.tasks", "games.queueing"),
    ("games.tasks", "games.services"),
    ("puzzles.services.authoring", "puzzles.tasks"),
    ("puzzles.services.solving", "puzzles.tasks"),
    ("puzzles.tasks", "puzzles.services"),
}


def _modules() -> dict[str, Path]:
    found = {}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if "migrations" in parts:
                continue
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def _type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(module: str, path: Path, modules: dict[str, Path]) -> list[tuple[str, bool]]:
    """(imported app module, made when the module loads) for every import of ``module``."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    named: list[tuple[str, bool]] = []

    def visit(node: ast.AST, loading: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _type_checking(child):
                continue
            if isinstance(child, ast.Import):
                named.extend((alias.name, loading) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    up = package.split(".")[: len(package.split(".")) - child.level + 1]
                    base = ".".join([*up, base] if base else up)
                for alias in child.names:
                    sub = f"{base}.{alias.name}"
                    named.append((sub if sub in modules else base, loading))
            else:
                inside = isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda)
                visit(child, loading and not inside)

    visit(ast.parse(path.read_text(encoding="utf-8")), True)
    edges = []
    for name, loading in named:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        if name and name != module:
            edges.append((name, loading))
    return edges


def _graph() -> dict[str, dict[str, bool]]:
    """importer -> {imported: whether some import of it is made when the importer loads}."""
    modules = _modules()
    graph: dict[str, dict[str, bool]] = {}
    for module, path in modules.items():
        targets: dict[str, bool] = {}
        for target, loading in _imports(module, path, modules):
            targets[target] = targets.get(target, False) or loading
        graph[module] = targets
    return graph


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def connect(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for other in sorted(graph[node]):
            if other not in index:
                connect(other)
                low[node] = min(low[node], low[other])
            elif other in on_stack:
                low[node] = min(low[node], index[other])
        if low[node] == index[node]:
            component = []
            while True:
                other = stack.pop()
                on_stack.discard(other)
                component.append(other)
                if other == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            connect(node)
    return found


def test_the_cycle_finder_finds_a_cycle() -> None:
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_is_read_from_the_source() -> None:
    graph = _graph()
    assert "tutorials.curriculum.referees.moves" in graph["tutorials.curriculum.referees"]
    assert graph["games.tasks"]["games.services"] is False  # inside the task
    assert "accounts.models" not in graph["accounts.owners"]  # under TYPE_CHECKING only


def test_no_import_cycle_among_the_app_modules_but_the_deliberate_ones() -> None:
    graph = _graph()
    edges = {
        node: {t for t in targets if (node, t) not in DELIBERATE} for node, targets in graph.items()
    }
    assert _cycles(edges) == []


def test_the_deliberate_cycles_are_made_inside_functions_and_explained() -> None:
    graph = _graph()
    for importer, imported in sorted(DELIBERATE):
        assert imported in graph[importer], f"{importer} no longer imports {imported}: drop it"
        assert graph[importer][imported] is False, f"{importer} imports {imported} on load"
    for tasks in ("accounts.tasks", "games.tasks", "puzzles.tasks"):
        docstring = ast.get_docstring(ast.parse(_modules()[tasks].read_text(encoding="utf-8")))
        assert docstring is not None and "import cycle" in docstring, tasks
