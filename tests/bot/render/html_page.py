"""Reading a static HTML page the bot writes (the item report): its tags, attributes, text."""

from __future__ import annotations

from html.parser import HTMLParser


class Page(HTMLParser):
    """Start tags, their attributes and the text of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.attrs: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        self.attrs.extend(name for name, _ in attrs)

    def handle_data(self, data: str) -> None:
        self.text.append(data)
