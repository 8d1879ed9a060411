"""A JSON Schema the repository supplies (``frontmatter-schema``), made safe to run.

* Every ``pattern`` and ``patternProperties`` regex is compiled and matched by RE2
  (:mod:`adrguard.core.saferegex`): jsonschema's own keywords would hand them to Python's
  backtracking ``re``. The keywords that match regexes are replaced through jsonschema's public
  :func:`jsonschema.validators.extend`; ``unevaluatedProperties`` next to ``patternProperties``
  is refused (jsonschema would match those regexes itself).
* ``$ref`` resolves only inside the schema document: the ``referencing`` registry's retrieve
  function refuses every other URI (``http:``, ``https:``, ``file:``, a relative file), so the
  schema can neither reach the network nor read a file.
* Problems are found when the schema is loaded (:func:`schema_problem`), so a bad schema is a
  configuration error (exit 2), never a crash in the middle of a run.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any

from adrguard.core.saferegex import UnsafePattern, compile_user

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

def _walk(node: Any, pointer: str = "") -> Iterator[tuple[str, Mapping[str, Any]]]:
    """Every schema object in the document with its JSON pointer (iteratively: a deeply nested
    schema cannot exhaust the stack)."""
    stack: list[tuple[Any, str]] = [(node, pointer)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, Mapping):
            yield where, item
            for key, value in item.items():
                stack.append((value, f"{where}/{_escape(str(key))}"))
        elif isinstance(item, list):
            stack.extend((value, f"{where}/{i}") for i, value in enumerate(item))


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def schema_problem(schema: Mapping[str, Any]) -> str | None:
    """Why ``schema`` cannot be used as a front-matter schema (words that follow "the schema"),
    or None: a regex RE2 refuses, a ``$ref`` that leaves the document or points nowhere, or an
    invalid schema."""
    refs: list[tuple[str, str]] = []
    for where, node in _walk(schema):
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            try:
                compile_user(pattern)
            except UnsafePattern as exc:
                return f"has a pattern at {where or '/'}/pattern that cannot be used: {exc}"
        props = node.get("patternProperties")
        if isinstance(props, Mapping):
            for key in props:
                try:
                    compile_user(str(key))
                except UnsafePattern as exc:
                    return (f"has a patternProperties key {key!r} at {where or '/'} that "
                            f"cannot be used: {exc}")
            if "unevaluatedProperties" in node:
                return (f"has unevaluatedProperties next to patternProperties (at "
                        f"{where or '/'}), which is not supported: use additionalProperties")
        ref = node.get("$ref")
        if isinstance(ref, str):
            refs.append((where, ref))
    from jsonschema import exceptions

    cls = _validator_class(schema)
    try:
        cls.check_schema(dict(schema))
    except exceptions.SchemaError as exc:
        return f"is not a valid JSON Schema: {exc.message}"
    resolver = _registry(schema).resolver(base_uri=str(schema.get("$id", "")))
    for where, ref in sorted(refs):
        try:
            resolver.lookup(ref)
        except Exception:  # referencing's Unresolvable family (and whatever retrieve raised)
            return (f"has a $ref {ref!r} at {where or '/'} that cannot be resolved: only "
                    "references inside "
                    "the schema file (#/$defs/...) are followed; remote and file references "
                    "are refused")
    return None


def user_validator(schema: Mapping[str, Any]) -> Validator:
    """A validator for ``schema`` (checked with :func:`schema_problem` first; ValueError when
    it fails)."""
    problem = schema_problem(schema)
    if problem is not None:
        raise ValueError(problem)
    cls = _validator_class(schema)
    validator: Validator = cls(dict(schema), registry=_registry(schema))
    return validator


def _refuse(uri: str) -> Any:
    from referencing.exceptions import NoSuchResource

    raise NoSuchResource(ref=uri)  # type: ignore[call-arg]


def _registry(schema: Mapping[str, Any]) -> Any:
    from referencing import Registry, Resource
    from referencing.jsonschema import specification_with

    dialect = str(schema.get("$schema", ""))
    spec = specification_with(dialect, default=_default_spec())
    root = Resource.from_contents(dict(schema), default_specification=spec)
    registry: Any = Registry(retrieve=_refuse)  # type: ignore[call-arg]
    return registry.with_resource(uri=str(schema.get("$id", "")), resource=root)


def _default_spec() -> Any:
    from referencing.jsonschema import DRAFT202012

    return DRAFT202012


def _validator_class(schema: Mapping[str, Any]) -> Any:
    from jsonschema import validators

    base = validators.validator_for(dict(schema))
    return validators.extend(base, {  # type: ignore[no-untyped-call]
        "pattern": _pattern,
        "patternProperties": _pattern_properties,
        "additionalProperties": _additional_properties,
    })


def _pattern(validator: Any, pattern: str, instance: Any, schema: Any) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if validator.is_type(instance, "string") and compile_user(pattern).search(instance) is None:
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: Mapping[str, Any], instance: Any,
                        schema: Any) -> Iterator[Any]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        regex = compile_user(pattern)
        for key in sorted(instance, key=str):
            if regex.search(key) is not None:
                yield from validator.descend(instance[key], subschema, path=key,
                                             schema_path=pattern)


def _additional_properties(validator: Any, allowed: Any, instance: Any,
                           schema: Mapping[str, Any]) -> Iterator[Any]:
    from jsonschema.exceptions import ValidationError

    if not validator.is_type(instance, "object"):
        return
    known = schema.get("properties", {})
    regexes = [compile_user(p) for p in schema.get("patternProperties", {})]
    extras = sorted(
        (k for k in instance
         if k not in known and not any(r.search(k) is not None for r in regexes)),
        key=str,
    )
    if validator.is_type(allowed, "object"):
        for extra in extras:
            yield from validator.descend(instance[extra], allowed, path=extra)
    elif not allowed and extras:
        named = ", ".join(repr(e) for e in extras)
        yield ValidationError(f"additional properties are not allowed ({named} unexpected)")
