// The translation unit that owns the suites' precompiled header (tests/CMakeLists.txt):
// compiled with exactly the definitions of a suite, and linked into none.
