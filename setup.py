"""Build hook for the optional C speed-up; the project's metadata is in pyproject.toml.

``civtable.rl.encoders._tta_fast`` assembles the Through the Ages observation vector in C
(:mod:`civtable.rl.encoders.through_the_ages`). It is optional: without a C compiler the build
goes on without it and the encoder takes its pure-Python path, which gives the same vectors.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "civtable.rl.encoders._tta_fast",
            ["src/civtable/rl/encoders/_tta_fast.c"],
            optional=True,
        )
    ]
)
