"""Round three's redaction gaps, each as it was found: JSON inside JSON strings, quoted
values holding an escaped quote, the secret shapes that were missing, ``sig`` and
``signature`` keys, and a raising hook's, middleware's or command's huge message."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from kit_core import redact, redact_text
from kit_lifecycle import hook
from kit_lifecycle._rollback import _error_text
from kit_lifecycle._secrets import scrub

SERVICE_ACCOUNT = {
    "type": "service_account",
    "private_key_id": "1a2b3c4d5e6f7a8b9c0d",
    "private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBg\n-----END PRIVATE KEY-----\n",
    "client_email": "kit@project.iam.gserviceaccount.com",
}


def test_a_doubly_encoded_service_account_key_keeps_none_of_its_secrets() -> None:
    once = json.dumps(SERVICE_ACCOUNT)
    inside = json.dumps({"note": once})  # a key file inside a JSON string
    for text in (inside, json.dumps(inside), json.dumps({"credentials_json": once})):
        shown = redact_text(text)
        assert "1a2b3c4d5e6f7a8b9c0d" not in shown, shown
        assert "MIIEvQIBADANBg" not in shown, shown
    # what is not secret stays readable
    assert "kit@project.iam.gserviceaccount.com" in redact_text(inside)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        ('{"password": "ab\\"cd-ef"}', "cd-ef"),  # an escaped quote inside the value
        ("password='it\\'s-secret'", "s-secret"),
        ('{\\"api_key\\": \\"Zq8pL2mN7vB4\\"}', "Zq8pL2mN7vB4"),  # JSON inside a string
        ("password=abc\\u0022def", "abc"),  # bare, up to the backslash
    ],
)
def test_quoted_values_are_masked_past_escaped_quotes(text: str, secret: str) -> None:
    assert secret not in redact_text(text), redact_text(text)


@pytest.mark.parametrize(
    ("text", "secret"),
    [
        (
            "DefaultEndpointsProtocol=https;AccountName=kitstore;"
            "AccountKey=Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsu==;EndpointSuffix=x",
            "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsu",
        ),
        (
            "Endpoint=sb://kit.servicebus.windows.net/;SharedAccessKeyName=RootManage;"
            "SharedAccessKey=Zx9/Yw8+Vu7TsR6Qp5On4Ml3Kj2Ih1Gf0Ed=",
            "Zx9/Yw8+Vu7TsR6Qp5On4Ml3Kj2Ih1Gf0Ed",
        ),
        (
            "https://kit.blob.core.windows.net/c/b.txt?sv=2022-11-02&se=2026&sig=AbC%2Fd3Ef%3D",
            "AbC%2Fd3Ef",
        ),
        ("Ocp-Apim-Subscription-Key: 0123456789abcdef0123456789abcdef", "0123456789abcdef"),
        (
            "post to https://hooks.slack.com/services/T01ABCD2E/B01ABCD2E/Xy7AbCdEfGhIjKlMnOpQrStU",
            "Xy7AbCdEfGhIjKlMnOpQrStU",
        ),
        (
            "https://discord.com/api/webhooks/112233445566778899/AbCdEfGhIjKlMnOpQrStUvWxYz_0123-45",
            "AbCdEfGhIjKlMnOpQrStUvWxYz",
        ),
        ("STRIPE_WEBHOOK=whsec_1234567890abcdefABCDEFghij", "1234567890abcdefABCDEF"),
        ("key 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", "TwL2iGAB"),
        ("jar: <Cookie sessionid=a1b2c3d4e5 for .example.com/>", "a1b2c3d4e5"),
        ("<Morsel: csrftoken=Q9w8E7r6T5y4>", "Q9w8E7r6T5y4"),
        ("Cookie(version=0, name='sessionid', value='a1b2c3d4e5', port=None)", "a1b2c3d4e5"),
    ],
)
def test_the_missing_shapes_are_masked(text: str, secret: str) -> None:
    shown = redact_text(text)
    assert secret not in shown, shown
    assert "***" in shown


def test_sig_and_signature_keys_are_secret_and_look_alikes_are_not() -> None:
    shown = redact({"sig": "a", "X-Amz-Signature": "b", "webhook_signature": "c",
                    "signal": "d", "design": "e", "signatures_count": 3})  # fmt: skip
    assert shown == {"sig": "***", "X-Amz-Signature": "***", "webhook_signature": "***",
                     "signal": "d", "design": "e", "signatures_count": 3}  # fmt: skip


HUGE = "x" * (4 * 1024 * 1024)


def test_a_huge_exception_message_is_cut_before_it_is_redacted() -> None:
    """A tool handler's error was cut first; a hook's, middleware's or command's was
    redacted whole (4 MiB: 670-810 ms holding the GIL). The work is bounded now."""
    exc = ValueError("api_key=abc123secret " + HUGE)
    scrub(exc, ())
    assert len(str(exc)) <= 2_001
    assert str(exc).startswith("api_key=*** ")
    text = _error_text(RuntimeError("token=abc123secret " + HUGE), ())
    assert len(text) <= 2_000
    assert "abc123secret" not in text


def test_a_raising_hook_leaves_the_host_a_cut_redacted_message(
    caplog: pytest.LogCaptureFixture,
) -> None:
    @hook("on_session_start")
    def starts(**kwargs: Any) -> None:
        raise RuntimeError("password=hunter2 " + HUGE)

    with caplog.at_level(logging.WARNING), pytest.raises(RuntimeError) as caught:
        starts(session_id="s")
    message = str(caught.value)
    assert message.startswith("password=*** ")
    assert len(message) <= 2_001
