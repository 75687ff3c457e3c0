package org.bforest.bench.output;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.bforest.bench.runner.Result;
import org.bforest.bench.runner.RunSummary;
import org.bforest.bench.structures.Structure;
import org.bforest.bench.workloads.Workload;
import org.junit.jupiter.api.Test;

/** The noise rule: an order is within noise when the gap between the medians is smaller than the wider spread. */
class NoiseTest {

    private static Result r(Structure s, double... reps) {
        return r(s, "uniform", Workload.A, reps);
    }

    private static Result r(Structure s, String dataset, Workload w, double... reps) {
        double[] sorted = reps.clone();
        java.util.Arrays.sort(sorted);
        return new Result(s, dataset, w, 1, 0, 1000, 500, sorted[sorted.length / 2], reps, 0.01, 30, 30, Double.NaN,
                Double.NaN, 1);
    }

    private static int count(String haystack, String needle) {
        int n = 0;
        for (int i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + 1)) {
            n++;
        }
        return n;
    }

    @Test
    void theGapAgainstTheWiderSpread() {
        // 5.76 [0.91-6.63] against 4.40 [4.10-4.60]: a gap of 1.36, a spread of 5.72.
        Result noisy = r(Structure.CSB4, 0.91, 5.76, 6.63);
        Result steady = r(Structure.BSTREE, 4.10, 4.40, 4.60);
        assertEquals(5.72, Noise.spread(noisy), 1e-9);
        assertTrue(Noise.within(noisy, steady) && Noise.within(steady, noisy));
        // Tight spreads and a clear gap: 8.0 [7.9-8.1] against 1.0 [0.95-1.05].
        assertFalse(Noise.within(r(Structure.BSTREE, 7.9, 8.0, 8.1), r(Structure.TREEMAP, 0.95, 1.0, 1.05)));
        // One wide spread is enough: 2.0 [1.99-2.01] against 2.2 [1.5-2.9].
        assertTrue(Noise.within(r(Structure.BSTREE, 1.99, 2.0, 2.01), r(Structure.TREEMAP, 1.5, 2.2, 2.9)));
        // A gap as wide as the spread is not within it.
        assertFalse(Noise.within(r(Structure.BSTREE, 1.5, 2.0, 2.5), r(Structure.TREEMAP, 2.5, 3.0, 3.5)));
        // A single repetition has no spread: never flagged.
        assertFalse(Noise.within(r(Structure.BSTREE, 2.0), r(Structure.TREEMAP, 2.01)));
        assertEquals("5.76 [0.91–6.63]", Noise.figure(noisy));
    }

    @Test
    void aRowIsFlaggedAgainstTheStructuresRankedNextToIt() {
        Result a = r(Structure.BSTREE, 9.9, 10.0, 10.1);
        Result b = r(Structure.CSB, 5.0, 6.0, 7.0);      // a spread of 2: a's gap of 4 is clear of it
        Result c = r(Structure.BPLUS, 5.4, 5.5, 5.6);    // 0.5 below b, within b's spread of 2
        Result d = r(Structure.TREEMAP, 0.9, 1.0, 1.1);
        Result other = r(Structure.SKIPLIST, "dense", Workload.A, 5.9, 6.05, 6.2); // another cell
        List<Result> all = List.of(a, b, c, d, other);
        assertEquals(List.of(), Noise.neighbours(a, all));
        assertEquals(List.of(c), Noise.neighbours(b, all));
        assertEquals(List.of(b), Noise.neighbours(c, all));
        assertEquals(List.of(), Noise.neighbours(d, all));
        assertEquals(List.of(), Noise.neighbours(other, all), "a row in another cell is not a neighbour");
    }

    @Test
    void theResultsTableMarksTheNoisyRows() {
        String html = HtmlReport.render(SyntheticRun.many(List.of(1)));
        String results = html.substring(html.indexOf("id=\"results\""), html.indexOf("id=\"notes\""));
        assertTrue(results.contains("within noise of"), "the column");
        assertTrue(results.contains("\u2248 X (within noise of X)"), "the lead says what the mark means");
        // csb4's 5.76 [0.91-6.63] on uniform A, the fastest there: within noise of the next one down,
        // bstree-olc's 4.52, and bstree-olc's row says so too.
        String row = results.substring(results.indexOf(">csb4<"));
        row = row.substring(0, row.indexOf("</tr>"));
        assertTrue(row.contains("5.76") && row.contains("0.91–6.63"), row);
        assertEquals(1, count(row, "class=\"noise\""), row);
        assertTrue(row.contains("title=\"csb4 5.76 [0.91–6.63] vs bstree-olc 4.52 [4.34–4.75] Mops/s"), row);
        assertTrue(row.contains(">\u2248 bstree-olc</span>"), row);
        String olc = results.substring(results.indexOf(">bstree-olc<"));
        olc = olc.substring(0, olc.indexOf("</tr>"));
        assertTrue(olc.contains(">\u2248 csb4</span>"), olc);
        // A row whose neighbours are clear of its noise gets no mark: bstree on uniform A, at 0.30
        // with the next at 0.41 (spreads under 0.04).
        String bstree = results.substring(results.indexOf(">bstree<"));
        bstree = bstree.substring(0, bstree.indexOf("</tr>"));
        assertTrue(bstree.contains(">0.30<"), bstree);
        assertFalse(bstree.contains("class=\"noise\""), bstree);
    }

    @Test
    void aHighlightWithinNoiseSaysSo() {
        RunSummary base = SyntheticRun.create(List.of("uniform"), List.of(1));
        // treemap's A moved next to bstree's 8.00 [7.20-8.80]: 7.00 [5.00-9.00].
        List<Result> rs = new ArrayList<>();
        for (Result x : base.results()) {
            rs.add(x.structure() == Structure.TREEMAP && x.workload() == Workload.A && x.threads() == 1
                    ? new Result(x.structure(), x.dataset(), x.workload(), 1, 0, x.keys(), x.ops(), 7.0,
                    new double[] {5.0, 7.0, 9.0}, x.buildSeconds(), x.heapBytesPerKey(), x.ownBytesPerKey(),
                    x.heapBytesAfter(), x.ownBytesAfter(), x.checksum()) : x);
        }
        RunSummary run = new RunSummary(base.options(), base.environment(), base.datasets(), rs, base.notes(),
                base.wallSeconds(), base.args());
        String html = HtmlReport.render(run);
        String highlights = html.substring(html.indexOf("id=\"highlights\""), html.indexOf("id=\"throughput\""));
        assertTrue(highlights.contains("bstree is 1.1× treemap on A"), highlights);
        String card = highlights.substring(highlights.indexOf("1.1×") - 200, highlights.indexOf("bstree is 1.1×"));
        assertTrue(card.contains("<span class=\"noise\">within noise</span>"), card);
        assertTrue(highlights.contains("8.00 [7.20–8.80] vs 7.00 [5.00–9.00] Mops/s"), "the figures behind it");
        // Only that card: bstree is 8× treemap on B to E, far clear of the noise.
        assertEquals(1, count(highlights, "<span class=\"noise\">"), highlights);
        // The unchanged run has no such mark.
        String clean = HtmlReport.render(base);
        assertEquals(0, count(clean.substring(clean.indexOf("id=\"highlights\""), clean.indexOf("id=\"throughput\"")),
                "<span class=\"noise\">"));
    }
}
