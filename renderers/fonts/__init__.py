"""The fonts the renderers ship: DejaVu Sans regular and bold, with LICENSE.txt."""
