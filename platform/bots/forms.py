"""Upload forms: a new bot with its first version, and a new version of an existing bot."""

from __future__ import annotations

from catalog.models import Game
from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError

from arena.bot_code import LANGUAGES, format_bytes
from bots.models import DESCRIPTION_MAX
from bots.validation import language_choices, validate_bundle

_SOURCES = [lang.source for lang in LANGUAGES.values()]
#: Build files that make a bot by themselves (a compiled language's: its build finds the sources).
_BUILD_FILES = [m for lang in LANGUAGES.values() if lang.compiled for m in lang.markers]
#: What a zip holds, said the same way by the field's help and the upload pages' side boxes.
ZIP_LAYOUT = (
    f"a .zip of the bot's folder: its entry file (such as {_SOURCES[0]}) or build file (such "
    f"as {' or '.join(_BUILD_FILES)}) at the zip's top level, or inside one folder at its top "
    "level"
)
CODE_HELP = f"One source file ({', '.join(_SOURCES)}), or {ZIP_LAYOUT}."
LANGUAGE_HELP = "Recognised from the files; choose only when they could be several languages."


def language_field() -> forms.ChoiceField:
    return forms.ChoiceField(
        choices=[("", "Recognise from the files"), *language_choices()],
        required=False,
        help_text=LANGUAGE_HELP,
    )


class CodeField(forms.FileField):
    """A .py or .zip bot, checked (size first, then content, by sandbox.bundle) before anything
    is stored. The upload handler has already stopped files past the cap while they streamed."""

    def clean(self, data, initial=None):
        upload = super().clean(data, initial)
        if upload is None:
            return upload
        cap = settings.ARENA_UPLOAD_MAX_BYTES
        if upload.size > cap:
            raise ValidationError(
                f"The file is {format_bytes(upload.size)}; uploads are limited to "
                f"{format_bytes(cap)}."
            )
        content = upload.read()
        validate_bundle(upload.name, content, cap)
        upload.validated_bytes = content
        return upload


class BotCreateForm(forms.Form):
    game = forms.ModelChoiceField(queryset=Game.objects.filter(is_active=True), empty_label=None)
    name = forms.CharField(max_length=60)
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), required=False, max_length=DESCRIPTION_MAX
    )
    code = CodeField(help_text=CODE_HELP)
    language = language_field()


class VersionUploadForm(forms.Form):
    code = CodeField(help_text=CODE_HELP)
    language = language_field()
