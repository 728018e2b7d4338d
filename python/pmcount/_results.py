"""What the public functions return: an exact ``int``, or a float or complex number with its error
bound (:class:`FloatResult`, :class:`ComplexResult`), everything a count reports
(:class:`Result`), an estimate with its interval (:class:`Estimate`), each built from the
pmcount._core struct the C++ library returned."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Dict, Tuple, Union

from . import _core


class FloatResult(float):
    """A float with its error bound: ``abs(result - true) <= result.error``.

    ``rel_error`` is the same bound relative to the value; ``details`` is the full
    :class:`Result`.
    """

    error: float
    rel_error: float
    details: "Result"

    def __new__(cls, value: float, details: "Result") -> "FloatResult":
        obj = super().__new__(cls, value)
        obj.error = details.error
        obj.rel_error = details.rel_error
        obj.details = details
        return obj


class ComplexResult(complex):
    """A complex number with its error bound (``error`` bounds ``abs(result - true)``)."""

    error: float
    rel_error: float
    details: "Result"

    def __new__(cls, value: complex, details: "Result") -> "ComplexResult":
        obj = super().__new__(cls, value.real, value.imag)
        obj.error = details.error
        obj.rel_error = details.rel_error
        obj.details = details
        return obj


@dataclass
class Result:
    """Everything one count reports (what ``full=True`` returns).

    value: the exact ``int`` when ``exact`` is true, else a float or complex.
    error, rel_error: bounds on |value − true| (0 for exact results); error_kind says what
    they are: "none" (exact), "estimate" (double, dd) or "bound" (precision="certified":
    value ± error provably holds the exact permanent).
    escalated_from: "double" when the default precision found the double result's digits lost
    to cancellation and counted again (certified, else double-double; the note says so), else "".
    log10_abs: log10 |value| (useful when a floating value overflows a double).
    method, backend, arithmetic, device, note: what ran and why.
    timings, stats, structure: the C++ library's CountResult fields, as dicts keyed by the C++
    names (pmcount._core.Timings, CountStats, StructureReport; the structure's leaves as dicts of
    BlockReport), the structure's and each leaf's ``predicted_s`` also as ``predicted_seconds``
    and its ``plan_text`` as ``plan``, their names before pmcount 0.2.
    """

    value: Union[int, float, complex]
    exact: bool
    error: float
    rel_error: float
    log10_abs: float
    kind: str
    error_kind: str
    escalated_from: str
    method: str
    backend: str
    arithmetic: str
    device: str
    note: str
    explained_only: bool
    timings: Dict[str, float] = field(default_factory=dict)
    stats: Dict[str, Any] = field(default_factory=dict)
    structure: Dict[str, Any] = field(default_factory=dict)
    _json: str = field(default="", repr=False, compare=False)

    def to_json(self) -> str:
        """The count as the C++ library's ``pmcount::to_json`` writes it: one compact JSON object
        with sorted keys, what ``count_matchings --json`` prints without the input's name, shape,
        warnings and file ids (the witnesses' vertices are 0-based indices)."""
        return self._json

    @staticmethod
    def _from(r: _core.CountResult) -> "Result":
        if r.is_exact:
            value: Union[int, float, complex] = r.exact
        elif r.kind == "complex":
            value = complex(r.complex_value)
        else:
            value = float(r.value)
        return Result(
            value=value,
            exact=r.is_exact,
            error=r.abs_error,
            rel_error=r.rel_error,
            log10_abs=r.log10_abs,
            kind=r.kind,
            error_kind=r.error_kind,
            escalated_from=r.escalated_from,
            method=r.method,
            backend=r.backend,
            arithmetic=r.arithmetic,
            device=r.device,
            note=r.note,
            explained_only=r.explained_only,
            timings=_fields(r.timings),
            stats=_fields(r.stats),
            structure=_structure(r.structure),
            _json=r.to_json(),
        )

    def _public(self, full: bool) -> Any:
        if full:
            return self
        if isinstance(self.value, int):
            return self.value
        if isinstance(self.value, complex):
            return ComplexResult(self.value, self)
        return FloatResult(self.value, self)


def _fields(struct: Any) -> Dict[str, Any]:
    """The fields of a pmcount._core struct as a dict by their C++ names (its properties, in the
    order the binding declares them), nested structs and lists of them as dicts too."""
    def plain(value: Any) -> Any:
        if isinstance(value, list):
            return [plain(item) for item in value]
        return _fields(value) if type(value).__module__ == _core.__name__ else value

    return {name: plain(getattr(struct, name)) for name, attribute in vars(type(struct)).items()
            if isinstance(attribute, property)}


# StructureReport's and BlockReport's fields by their names in pmcount 0.1's dicts.
_OLD_STRUCTURE_KEYS = {"predicted_s": "predicted_seconds", "plan_text": "plan"}


def _structure(report: _core.StructureReport) -> Dict[str, Any]:
    """Result.structure: the report's fields, and under their old names too."""
    def with_old_keys(d: Dict[str, Any]) -> Dict[str, Any]:
        d.update({old: d[name] for name, old in _OLD_STRUCTURE_KEYS.items() if name in d})
        return d

    d = with_old_keys(_fields(report))
    d["leaves"] = [with_old_keys(leaf) for leaf in d["leaves"]]
    return d


@dataclass
class Estimate:
    """An estimate with its confidence interval (all of the C++ EstimateResult in ``raw``, a dict
    by the C++ names).

    value: the estimate (a float; ``inf`` when it overflows a double: use ``log10``).
    ci: (low, high) at ``confidence`` (default 95%); ``log10_ci`` the same in log10.
    rel_std_error: the estimated relative standard error; samples: samples drawn.
    """

    value: float
    log10: float
    ci: Tuple[float, float]
    log10_ci: Tuple[float, float]
    confidence: float
    rel_std_error: float
    samples: int
    seconds: float
    note: str
    raw: Dict[str, Any] = field(default_factory=dict)
    _json: str = field(default="", repr=False, compare=False)

    def to_json(self) -> str:
        """The estimate as the C++ library's ``pmcount::to_json`` writes it, what
        ``count_matchings --approx --json`` prints without the input's name and warnings."""
        return self._json
