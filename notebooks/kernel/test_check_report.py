"""Tests of check_report.py's output checks on small reports built as nbconvert's lab template writes them.

    python3 -m unittest discover -s notebooks/kernel -p 'test_*.py'
"""
import json
import os
import tempfile
import unittest

import check_report
from check_report import output_problems, significant_digits


def stream(text):
    return ('<div class="jp-OutputArea-child"><div class="jp-OutputPrompt jp-OutputArea-prompt"></div>'
            '<div class="jp-RenderedText jp-OutputArea-output" data-mime-type="text/plain" tabindex="0">'
            f'<pre>{text}</pre></div></div>')


def table(*cells):
    row = "".join(f"<td>{c}</td>" for c in cells)
    return ('<div class="jp-OutputArea-child jp-OutputArea-executeResult"><div class="jp-OutputPrompt">Out[1]:</div>'
            '<div class="jp-RenderedHTMLCommon jp-RenderedHTML jp-OutputArea-output" data-mime-type="text/html">'
            f'<table class="approxgp"><tr>{row}</tr></table></div></div>')


def image():
    return ('<div class="jp-OutputArea-child"><div class="jp-RenderedImage jp-OutputArea-output">'
            '<img src="data:image/png;base64,iVBORw0KGgo1234567.891234AAAA"/></div></div>')


def cell(*outs, source="var x = 0.123456789;"):
    return ('<div class="jp-Cell jp-CodeCell"><div class="jp-InputArea"><pre>' + source + '</pre></div>'
            '<div class="jp-Cell-outputWrapper"><div class="jp-OutputArea jp-Cell-outputArea">'
            + "".join(outs) + '</div></div></div>')


def report(*cells):
    return "<html><body>" + "".join(cells) + "</body></html>"


class OutputChecks(unittest.TestCase):

    def test_a_finished_report_has_no_problems(self):
        html = report(cell(stream("fit: 3 of 4 units\nmean 0.2921 ± 0.01\n"), table("crabs", "0.2921", "")),
                      cell(image()), cell(stream("done, seed 123456789, store 95a0854de295b6f8, v1.2.3\n")))
        self.assertEqual([], output_problems(html))

    def test_consecutive_stream_outputs_of_one_cell_are_fragments(self):
        html = report(cell(stream("reading a"), stream(": reproduces "), stream("0")))
        problems = output_problems(html)
        self.assertEqual(1, len(problems), problems)
        self.assertIn("fragmented print", problems[0])

    def test_stream_outputs_of_different_cells_or_split_by_a_display_are_not_fragments(self):
        html = report(cell(stream("a\n")), cell(stream("b\n"), table("x"), stream("c\n")))
        self.assertEqual([], output_problems(html))

    def test_a_record_dump_is_found_in_text_and_in_tables(self):
        problems = output_problems(report(cell(stream("Role[role=aimpeak, data=flights-41800]\n")),
                                          cell(table("Provenance[source=classpath:x]"))))
        self.assertEqual(2, len(problems), problems)
        self.assertTrue(all("record dump" in p for p in problems))

    def test_numbers_with_more_than_six_significant_digits_are_found(self):
        problems = output_problems(report(cell(stream("65.96428571428571 | 6.383220226616902\n")),
                                          cell(table("-26.283635860820393", "1.6487212707001282e-05"))))
        self.assertEqual(4, len(problems), problems)

    def test_six_significant_digits_and_integers_pass(self):
        html = report(cell(stream("0.000123456 and 123456 and 1234.56 and 1.23457e-08 and 41800 trials\n")))
        self.assertEqual([], output_problems(html))

    def test_nan_in_text_is_found_but_not_inside_words(self):
        problems = output_problems(report(cell(stream("mean NaN ± NaN\n")), cell(stream("NaNny, nan-free\n"))))
        self.assertEqual(2, len(problems), problems)
        self.assertTrue(all("NaN" in p for p in problems))

    def test_code_and_images_are_not_checked(self):
        html = report(cell(image(), source="Role[role=x] 0.123456789 NaN"))
        self.assertEqual([], output_problems(html))

    def test_significant_digits(self):
        self.assertEqual(3, significant_digits("0.00120"))
        self.assertEqual(4, significant_digits("-12.34"))
        self.assertEqual(2, significant_digits("1.5e-07"))
        self.assertEqual(17, significant_digits("0.29208627322614020"))


class MainExitCode(unittest.TestCase):

    def test_main_fails_a_report_with_output_problems_even_when_content_is_there(self):
        with tempfile.TemporaryDirectory() as d:
            nb = os.path.join(d, "n.ipynb")
            html = os.path.join(d, "n.html")
            with open(nb, "w", encoding="utf-8") as f:
                json.dump({"metadata": {"approxgp": {"expect": {"tables": 1}}}, "cells": []}, f)
            with open(html, "w", encoding="utf-8") as f:
                f.write(report(cell(table("1")), cell(stream("a"), stream("b"))))
            self.assertEqual(1, check_report.main(["check_report.py", nb, html]))
            with open(html, "w", encoding="utf-8") as f:
                f.write(report(cell(table("1")), cell(stream("ab\n"))))
            self.assertEqual(0, check_report.main(["check_report.py", nb, html]))


if __name__ == "__main__":
    unittest.main()
