"""Reading the signatures the host model stores: which arguments a hermes function takes."""

from __future__ import annotations

from kit_core._host_signatures import accepts, parameters
from kit_core.hermes import registry_release


def test_an_unquoted_generic_annotation_adds_no_parameter() -> None:
    # model_tools' annotations are not strings: "Dict[str, Any]" holds a comma
    signature = "(function_name: str, function_args: Dict[str, Any], task_id: Optional[str] = None)"
    positional, keywords, var_pos, var_kw = parameters(signature)
    assert positional == ["function_name", "function_args", "task_id"]
    assert keywords == {"function_name", "function_args", "task_id"}
    assert (var_pos, var_kw) == (False, False)


def test_quoted_annotations_keyword_only_and_variadics_are_read() -> None:
    signature = "(self, name: 'str', handler: 'Callable[[Dict[str, Any]], str]', *a, x=1, **kw)"
    assert parameters(signature) == (["name", "handler"], {"name", "handler", "x"}, True, True)
    assert accepts(signature, 5, ["anything"])  # *a and **kw take the rest


def test_a_keyword_a_signature_lacks_is_refused() -> None:
    signature = "(tool_name: 'str', *, task_id: 'str' = '') -> 'None'"
    assert accepts(signature, 1, ["task_id"])
    assert not accepts(signature, 2, [])
    assert not accepts(signature, 1, ["turn_id"])
    assert accepts("property", 0, [])
    assert not accepts("property", 0, ["x"])


def test_each_release_pipeline_takes_the_call_context_it_has() -> None:
    """turn_id and api_request_id arrive in 0.16.0's handle_function_call."""
    for version, has in (("0.15.2", False), ("0.16.0", True), ("0.19.0", True)):
        release = registry_release(version)
        assert release is not None
        signature = release.functions["model_tools.handle_function_call"]
        assert ("turn_id" in parameters(signature)[1]) is has, version
