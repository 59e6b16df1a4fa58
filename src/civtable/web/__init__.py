"""The browser UI: static HTML, CSS and JavaScript modules served by :mod:`civtable.server`."""
