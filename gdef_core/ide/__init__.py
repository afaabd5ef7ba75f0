"""What an editor needs to know about .gdef text, in gdef_core terms (Span, Name, Symbol).

No LSP here: gdef_lsp adapts these results to the protocol, and any other front end
(a test, another editor protocol) can use them as they are. The entry point is
`Session` (open buffers over the files on disk, one cached Analysis per game); the
feature modules take an Analysis and a position:

    navigation   symbol at a position, definition, references, highlights
    rename       prepare_rename / rename edits, refused with a reason
    hover        hover text (markdown)
    signature    signature help for the call around the cursor
    completion   completion candidates by the context of the cursor
    outline      document and workspace symbols
    highlight    semantic token classification
    folding      folding ranges
    fixes        code-action fixes
    run          the argv that runs a game
    rule_tests   move scripts and rule tests: assertion help, gdef-test's argv and report
"""
