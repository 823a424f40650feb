"""The bundled rulebooks, installed as ``tractor_spec``: rule files (``*.tractor``), the clause inventory and the source documents."""
