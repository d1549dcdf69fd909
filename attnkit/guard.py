"""Notice, and undo, what a piece of code did to Python itself.

A reader's exercise runs in the same Python as the checker that marks it: in the page, the
tab's one Pyodide, shared with the listings and the playground. Code can change that Python for
everything that runs after it: ``import builtins; del builtins.len``, ``np.allclose = lambda *a,
**k: True``, ``sys.setrecursionlimit(30)``. A :class:`Snapshot` taken before such code records
what it can reach by name:

* every name of every loaded module of the standard library, NumPy and attnkit, what the checker
  and the exercises run on (and of every class such a module defines in Python), with the code,
  defaults and closure of each function among them; another package (torch, in a test process
  that also compares with PyTorch) is not watched: nothing that marks an answer uses it;
* the items of attnkit's own module-level lists, dicts, sets and arrays (the data its
  functions, and so the exercises' expected values, are computed from);
* ``sys.modules``, ``sys.path``, ``sys.meta_path``, ``sys.path_hooks``, the recursion limit,
  the trace and profile functions, the working directory, ``warnings.filters``, the garbage
  collector's switches and callbacks, and NumPy's error, buffer and print settings.

:meth:`Snapshot.changes` names what differs now (empty: nothing it can see was touched);
:meth:`Snapshot.restore` puts it all back. Both work even after the code under watch deleted
builtins: this module binds the builtins it uses to its own names when it is imported.

What it cannot see: a change inside a mutable object other than those above (an item of
NumPy's or the standard library's own dicts), state outside Python, or code written to attack
this module itself. So the page restarts its Python whenever :meth:`changes` is not empty rather
than trusting :meth:`restore`, and a grader should run each submission in a process of its own.

Example
-------
>>> import numpy as np
>>> before = Snapshot()
>>> real, np.allclose = np.allclose, (lambda *args, **kwargs: True)
>>> [str(change) for change in before.changes()]
['numpy.allclose (replaced)']
>>> before.restore()
>>> np.allclose is real, before.changes()
(True, [])
"""

from __future__ import annotations

# The builtins this module uses, bound to its own names: code that deleted them from the
# builtins module cannot stop the snapshot from seeing (and undoing) exactly that.
from builtins import (
    Exception, OSError, ValueError, all, any, delattr, dict, frozenset, getattr, id, isinstance, len, list, set,
    setattr, sorted, tuple, type, zip,
)
import builtins
import gc
import os
import sys
import types
import warnings
from typing import NamedTuple

import numpy as np

__all__ = ["Snapshot", "Change"]

_MISSING = object()
_IMMUTABLE_TYPE = 1 << 8             # Py_TPFLAGS_IMMUTABLETYPE: a C type whose attributes cannot change
_VOLATILE = {                        # names Python itself rebinds while it runs
    "sys": {"last_type", "last_value", "last_traceback", "last_exc", "ps1", "ps2"},
}
_ADDED_BY_PYTHON = {"__slotnames__"}   # what copyreg adds to a class the first time one is pickled
_IN_EVERY_MODULE = {"__warningregistry__"}   # what the warnings module adds to a module whose code warned
_ARRAY_LIMIT = 1_000_000             # attnkit arrays up to this many items are copied, larger ones hashed by identity


class Change(NamedTuple):
    """One thing :meth:`Snapshot.changes` found: what (``name``, as code would write it) and
    ``how``: "deleted", "replaced", "added" or "changed"."""

    name: str
    how: str

    def __str__(self):
        return f"{self.name} ({self.how})"


def _is_module(value) -> bool:
    return isinstance(value, types.ModuleType) and isinstance(getattr(value, "__dict__", None), dict)


def _function_state(f):
    """What can be changed on a Python function without replacing it: its code, its defaults, its
    keyword defaults (and their items) and what its closure cells hold."""
    cells = []
    for cell in f.__closure__ or ():
        try:
            cells.append(cell.cell_contents)
        except ValueError:               # an empty cell (a name not assigned yet)
            cells.append(_MISSING)
    kwdefaults = f.__kwdefaults__
    return (f.__code__, f.__defaults__, kwdefaults, None if kwdefaults is None else dict(kwdefaults), tuple(cells))


def _set_function_state(f, state) -> None:
    code, defaults, kwdefaults, kwitems, cells = state
    f.__code__ = code
    f.__defaults__ = defaults
    f.__kwdefaults__ = kwdefaults
    if kwdefaults is not None:
        kwdefaults.clear()
        kwdefaults.update(kwitems)
    for cell, value in zip(f.__closure__ or (), cells):
        if value is _MISSING:
            try:
                del cell.cell_contents
            except ValueError:
                pass
        else:
            cell.cell_contents = value


def _same_function_state(f, state) -> bool:
    """True if ``f`` still has the code, defaults and closure recorded in ``state`` (compared in
    place: this runs for thousands of functions on every check)."""
    code, defaults, kwdefaults, kwitems, cells = state
    if f.__code__ is not code or f.__defaults__ is not defaults or f.__kwdefaults__ is not kwdefaults:
        return False
    if kwitems is not None and (len(kwdefaults) != len(kwitems)
                                or any(kwdefaults.get(k, _MISSING) is not v for k, v in kwitems.items())):
        return False
    if cells:
        closure = f.__closure__ or ()
        if len(closure) != len(cells):
            return False
        for cell, value in zip(closure, cells):
            try:
                if cell.cell_contents is not value:
                    return False
            except ValueError:
                if value is not _MISSING:
                    return False
    return True


def _container_copy(value):
    """A copy of an attnkit module-level container's items, to compare item by item."""
    if isinstance(value, dict):
        return ("dict", dict(value))
    if isinstance(value, list):
        return ("list", list(value))
    if isinstance(value, set):
        return ("set", set(value))
    if isinstance(value, np.ndarray) and value.dtype != object and value.size <= _ARRAY_LIMIT:
        return ("array", value.copy(), value.flags.writeable)
    return None


def _same_container(value, copy) -> bool:
    kind = copy[0]
    if kind == "dict":
        return len(value) == len(copy[1]) and all(value.get(k, _MISSING) is v for k, v in copy[1].items())
    if kind == "list":
        return len(value) == len(copy[1]) and all(a is b for a, b in zip(value, copy[1]))
    if kind == "set":
        return value == copy[1]
    return (value.shape == copy[1].shape and value.dtype == copy[1].dtype and value.flags.writeable == copy[2]
            and np.array_equal(value, copy[1], equal_nan=True))


def _put_container_back(value, copy) -> None:
    kind = copy[0]
    if kind in ("dict", "set"):
        value.clear()
        value.update(copy[1])
    elif kind == "list":
        value[:] = copy[1]
    else:
        value.flags.writeable = True
        value[...] = copy[1]
        value.flags.writeable = copy[2]


class Snapshot:
    """What code can change in this Python by name, recorded now; see the module's docstring.

    ``prefixes_with_data`` names the modules whose module-level containers are recorded item by
    item (attnkit's: the data its functions compute from). ``volatile`` maps a module's name to
    the names it rebinds as it works (the page's helper keeps the current run's output function
    in a global): those are neither compared nor put back.
    """

    WATCHED = frozenset(sys.stdlib_module_names) | {"numpy", "attnkit", "playground"}   # playground: the page's helper

    def __init__(self, prefixes_with_data=("attnkit",), volatile=None):
        self._prefixes = tuple(prefixes_with_data)
        self._volatile = {**_VOLATILE, **{k: set(v) for k, v in (volatile or {}).items()}}
        self._builtins = builtins.__dict__
        self._builtins_items = dict(self._builtins)
        self._modules = {}                 # name -> (module, its dict copied)
        self._functions = {}               # id -> (function, state, a name for messages)
        self._classes = {}                 # id -> (class, its dict copied, a name for messages)
        self._data = {}                    # (module name, key) -> (value, its items copied)
        for name, module in list(sys.modules.items()):
            if name == "__main__" or not _is_module(module) or name.split(".")[0] not in self.WATCHED:
                continue
            items = dict(module.__dict__)
            self._modules[name] = (module, items)
            self._record_names(name, items)
            if name.split(".")[0] in self._prefixes:
                skip = set(self._volatile.get(name, ())) | _IN_EVERY_MODULE
                for key, value in items.items():
                    copy = None if key == "__builtins__" or key in skip else _container_copy(value)
                    if copy is not None:
                        self._data[(name, key)] = (value, copy)
        self._sys_lists = {key: list(getattr(sys, key)) for key in ("path", "meta_path", "path_hooks")}
        self._settings = self._read_settings()
        # the functions that read and write the settings, as they are now (not as code may leave them)
        self._np_set = (np.seterr, np.seterrcall, np.setbufsize, np.set_printoptions)

    def builtins(self) -> dict:
        """A copy of the builtins as they were (for code to run with the real ones, whatever
        happened to the builtins module since)."""
        return dict(self._builtins_items)

    def _record_names(self, owner: str, items: dict) -> None:
        for key, value in items.items():
            if isinstance(value, types.FunctionType):
                if id(value) not in self._functions:
                    self._functions[id(value)] = (value, _function_state(value), f"{owner}.{key}")
            elif isinstance(value, type) and not value.__flags__ & _IMMUTABLE_TYPE and id(value) not in self._classes:
                members = dict(value.__dict__)
                self._classes[id(value)] = (value, members, f"{owner}.{key}")
                for member, inner in members.items():
                    inner = getattr(inner, "__func__", inner)          # staticmethod, classmethod
                    if isinstance(inner, types.FunctionType) and id(inner) not in self._functions:
                        self._functions[id(inner)] = (inner, _function_state(inner), f"{owner}.{key}.{member}")

    @staticmethod
    def _read_settings() -> dict:
        return {
            "sys.setrecursionlimit": sys.getrecursionlimit(),
            "sys.settrace": sys.gettrace(),
            "sys.setprofile": sys.getprofile(),
            "os.chdir": os.getcwd(),
            "warnings.filters": list(warnings.filters),
            "gc.enable/disable": gc.isenabled(),
            "gc.set_threshold": gc.get_threshold(),
            "gc.callbacks": list(gc.callbacks),
            "np.seterr": np.geterr(),
            "np.seterrcall": np.geterrcall(),
            "np.setbufsize": np.getbufsize(),
            "np.set_printoptions": np.get_printoptions(),
        }

    def changes(self) -> list:
        """What differs from the snapshot: a list of :class:`Change` (``numpy.allclose``
        replaced, ``builtins.len`` deleted, ``sys.path`` changed), empty when nothing does."""
        found = []
        found += self._changed_names("builtins", self._builtins, self._builtins_items, strict=True)
        for name, (module, items) in self._modules.items():
            if name == "builtins":
                continue
            if sys.modules.get(name, _MISSING) is not module:
                found.append(Change(f"sys.modules[{name!r}]", "replaced"))
            found += self._changed_names(name, module.__dict__, items, strict=False)
        for _, (cls, members, where) in self._classes.items():
            found += self._changed_names(where, cls.__dict__, members, strict=True, allowed=_ADDED_BY_PYTHON)
        for f, state, where in self._functions.values():
            if not _same_function_state(f, state):
                found.append(Change(f"{where}.__code__", "changed"))
        for (name, key), (value, copy) in self._data.items():
            if not _same_container(value, copy):
                found.append(Change(f"{name}.{key}", "changed"))
        for key, items in self._sys_lists.items():
            now = getattr(sys, key, _MISSING)
            if not isinstance(now, list) or len(now) != len(items) or any(a is not b and a != b for a, b in zip(now, items)):
                found.append(Change(f"sys.{key}", "changed"))
        try:
            settings = self._read_settings()
        except Exception:                      # a settings function was itself replaced: named above
            settings = {}
        for key, value in self._settings.items():
            if key in settings and settings[key] != value:
                found.append(Change(key, "changed"))
        return sorted(set(found), key=found.index)

    def _changed_names(self, owner, now: dict, then: dict, strict: bool, allowed=frozenset()) -> list:
        found = []
        volatile = set(self._volatile.get(owner, ())) | _IN_EVERY_MODULE
        for key, value in then.items():
            if key in volatile:
                continue
            if key not in now:
                found.append(Change(f"{owner}.{key}", "deleted"))
            elif now[key] is not value:
                found.append(Change(f"{owner}.{key}", "replaced"))
        if len(now) != len(then) or strict:
            for key, value in now.items():
                if key in then or key in volatile or key in allowed:
                    continue
                # a submodule imported since is a new name of its package, not a change
                if _is_module(value) and sys.modules.get(f"{owner}.{key}") is value:
                    continue
                if strict or not _is_module(value):
                    found.append(Change(f"{owner}.{key}", "added"))
        return found

    def restore(self) -> None:
        """Put back everything :meth:`changes` can name (each item as it was recorded)."""
        self._put_names_back(self._builtins, self._builtins_items, strict=True)
        for name, (module, items) in self._modules.items():
            sys.modules[name] = module
            if name != "builtins":
                self._put_names_back(module.__dict__, items, strict=False, owner=name)
        for _, (cls, members, _where) in self._classes.items():
            for key in [k for k in cls.__dict__ if k not in members and k not in _ADDED_BY_PYTHON]:
                delattr(cls, key)
            for key, value in members.items():
                if cls.__dict__.get(key, _MISSING) is not value and key not in ("__dict__", "__weakref__"):
                    setattr(cls, key, value)
        for f, state, _where in self._functions.values():
            if not _same_function_state(f, state):
                _set_function_state(f, state)
        for (_, _), (value, copy) in self._data.items():
            if not _same_container(value, copy):
                _put_container_back(value, copy)
        for key, items in self._sys_lists.items():
            now = getattr(sys, key, None)
            if isinstance(now, list):
                now[:] = items
            else:
                setattr(sys, key, list(items))
        s = self._settings
        sys.setrecursionlimit(s["sys.setrecursionlimit"])
        sys.settrace(s["sys.settrace"])
        sys.setprofile(s["sys.setprofile"])
        try:
            os.chdir(s["os.chdir"])
        except OSError:
            pass
        warnings.filters[:] = s["warnings.filters"]
        (gc.enable if s["gc.enable/disable"] else gc.disable)()
        gc.set_threshold(*s["gc.set_threshold"])
        gc.callbacks[:] = s["gc.callbacks"]
        seterr, seterrcall, setbufsize, set_printoptions = self._np_set
        seterr(**s["np.seterr"])
        seterrcall(s["np.seterrcall"])
        setbufsize(s["np.setbufsize"])
        set_printoptions(**s["np.set_printoptions"])

    def _put_names_back(self, now: dict, then: dict, strict: bool, owner: str = "builtins") -> None:
        volatile = set(self._volatile.get(owner, ())) | _IN_EVERY_MODULE
        for key in [k for k in now if k not in then and k not in volatile]:
            value = now[key]
            if strict or not (_is_module(value) and sys.modules.get(f"{owner}.{key}") is value):
                del now[key]
        for key, value in then.items():
            if key not in volatile and (key not in now or now[key] is not value):
                now[key] = value
