"""The only package that imports libcst: parse files and lower them to the IR."""
