"""Comparisons, going-out odds and HTML/Markdown reports built on run folders."""
