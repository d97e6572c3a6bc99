"""The parser's version, apart from the parser: opening the index must not import the parser."""

PARSER_VERSION = "1"  # bump when parsing reads the same text differently: indexes are rebuilt
