"""The model's tokenizer, built with the `tokenizers` library from the vocabulary and merges in the GGUF file.

GGUF stores a byte-level BPE tokenizer (tokenizer.ggml.model "gpt2") as its token list, its merges
and the name of the rule that splits text before merging (tokenizer.ggml.pre). The rules below are
the ones llama.cpp applies for those names; a file with any other tokenizer gets a clear message.
"""

from __future__ import annotations

from typing import Any

from attn_desktop.language import tr
from attn_desktop.model.pretrained.gguf_file import ModelFileError

CONTROL_TOKEN_TYPE = 3
USER_DEFINED_TOKEN_TYPE = 4
# Llama 3's split: letters with one leading non-letter, numbers in threes, punctuation runs, spaces.
LLAMA3_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
GPT2_STYLE = {"gpt2", "default"}
DIGITS_THEN_GPT2 = {"smollm", "starcoder", "refact", "codeshell"}  # every digit on its own, then GPT-2's split
LLAMA3_STYLE = {"llama-bpe", "llama3"}
# The metadata entries the tokenizer is built from (kept in the weights cache, so a cached load needs no other).
TOKENIZER_KEYS = tuple("tokenizer.ggml." + name for name in (
    "model", "pre", "tokens", "merges", "token_type", "add_bos_token", "bos_token_id"))


def _byte_of_character() -> dict[str, int]:
    """GPT-2's byte-level alphabet backwards: the printable character that stands for each byte."""
    printable = [*range(ord("!"), ord("~") + 1), *range(ord("¡"), ord("¬") + 1), *range(ord("®"), ord("ÿ") + 1)]
    characters = {byte: chr(byte) for byte in printable}
    shifted = 0
    for byte in range(256):
        if byte not in characters:
            characters[byte] = chr(256 + shifted)
            shifted += 1
    return {character: byte for byte, character in characters.items()}


BYTE_OF_CHARACTER = _byte_of_character()


class ModelTokenizer:
    """Sentence → token ids, and each id → the text it stands for (" cat")."""

    def __init__(self, metadata: dict[str, Any], shown: str) -> None:
        self._tokenizer = _build(metadata, shown)
        self.add_bos = bool(metadata.get("tokenizer.ggml.add_bos_token", False))
        self.bos_id = metadata.get("tokenizer.ggml.bos_token_id")

    @property
    def vocab_size(self) -> int:
        return int(self._tokenizer.get_vocab_size(with_added_tokens=True))

    @property
    def special_ids(self) -> frozenset[int]:
        """The control and user-defined tokens ("<|im_start|>", "<file_sep>"): markers, not text."""
        return frozenset(int(token_id) for token_id in self._tokenizer.get_added_tokens_decoder())

    def first_token_ids(self) -> list[int]:
        """What the model reads before any text: the beginning-of-text token if this tokenizer adds one, else nothing."""
        return [int(self.bos_id)] if self.add_bos and self.bos_id is not None else []

    def encode(self, sentence: str) -> list[int]:
        return self.first_token_ids() + list(self._tokenizer.encode(sentence, add_special_tokens=False).ids)

    def text_of(self, token_id: int) -> str:
        """One token's text (" cat"); a token holding only part of a character (an emoji or a CJK
        character is often split in two or three) shows its bytes instead, "<F0 9F>", so pieces differ."""
        text = str(self._tokenizer.decode([token_id], skip_special_tokens=False))
        if "\ufffd" not in text:
            return text
        piece = self._tokenizer.id_to_token(token_id) or ""
        if not all(character in BYTE_OF_CHARACTER for character in piece):
            return text
        raw = bytes(BYTE_OF_CHARACTER[character] for character in piece)
        return "<" + " ".join(f"{byte:02X}" for byte in raw) + ">"


def tokenizer_metadata(metadata: dict[str, Any]) -> dict[str, Any]:
    """The entries of METADATA the tokenizer is built from."""
    return {key: metadata[key] for key in TOKENIZER_KEYS if key in metadata}


def _build(metadata: dict[str, Any], shown: str) -> Any:
    from tokenizers import Tokenizer, decoders, models

    kind = metadata.get("tokenizer.ggml.model")
    if kind != "gpt2":
        raise ModelFileError(
            tr("{file}: its tokenizer is {kind}; only byte-level BPE tokenizers ('gpt2', as in SmolLM2 and "
               "Llama 3) can be read").format(file=shown, kind=repr(kind))
        )
    tokens: list[str] = list(metadata.get("tokenizer.ggml.tokens") or [])
    merges: list[str] = list(metadata.get("tokenizer.ggml.merges") or [])
    if not tokens or not merges:
        raise ModelFileError(tr("{file}: the tokenizer's vocabulary or merges are missing").format(file=shown))
    vocab = {token: index for index, token in reversed(list(enumerate(tokens)))}  # the first of duplicates wins
    pairs = [(first, second) for first, _, second in (merge.partition(" ") for merge in merges) if second]
    try:
        tokenizer = Tokenizer(models.BPE(vocab=vocab, merges=pairs, fuse_unk=False))
    except Exception as error:  # noqa: BLE001 - tokenizers raises its own kinds for a bad vocabulary
        raise ModelFileError(tr("{file}: the tokenizer's merges do not fit its vocabulary ({reason})").format(
            file=shown, reason=error)) from None
    tokenizer.pre_tokenizer = _pre_tokenizer(str(metadata.get("tokenizer.ggml.pre", "default")), shown)
    tokenizer.decoder = decoders.ByteLevel()
    token_types = list(metadata.get("tokenizer.ggml.token_type") or [])
    special = [tokens[i] for i, kind in enumerate(token_types) if kind in (CONTROL_TOKEN_TYPE, USER_DEFINED_TOKEN_TYPE)]
    tokenizer.add_special_tokens(special)
    return tokenizer


def _pre_tokenizer(name: str, shown: str) -> Any:
    from tokenizers import Regex, pre_tokenizers

    if name in GPT2_STYLE:
        return pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    if name in DIGITS_THEN_GPT2:
        return pre_tokenizers.Sequence(
            [pre_tokenizers.Digits(individual_digits=True), pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)]
        )
    if name in LLAMA3_STYLE:
        return pre_tokenizers.Sequence(
            [
                pre_tokenizers.Split(Regex(LLAMA3_SPLIT), behavior="isolated"),
                pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
            ]
        )
    raise ModelFileError(tr("{file}: its tokenizer splits text by the rule {rule}, which this app does not know").format(
        file=shown, rule=repr(name)))
