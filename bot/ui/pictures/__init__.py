"""Pictures as PNG bytes (Pillow): the canvas, the bundled fonts, ruled tables, the style."""
