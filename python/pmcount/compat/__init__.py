"""Drop-in modules with other libraries' names and conventions, computed by pmcount:
``from pmcount.compat import thewalrus as tw``."""
