"""Collected stylesheets and scripts are minified (issue 29); minified ones are left alone."""

from momenta_site.static_storage import minified


def test_stylesheets_and_scripts_lose_comments_and_spacing():
    css = "/* why */\n.a {\n  color: red;\n}\n/*! licence */\n"
    assert minified("tables/site.css", css) == ".a{color:red}/*! licence */"
    js = "// why\nfunction f(a) {\n  return a + 1; // one more\n}\n"
    assert minified("tables/live.js", js) == "function f(a){return a+1;}"


def test_files_named_min_and_other_kinds_are_kept_as_they_are():
    assert minified("django_htmx/htmx-2.min.js", "a  =  1") is None
    assert minified("admin/js/vendor/jquery/jquery.min.js", "a  =  1") is None
    assert minified("tables/notes.txt", "a  =  1") is None
