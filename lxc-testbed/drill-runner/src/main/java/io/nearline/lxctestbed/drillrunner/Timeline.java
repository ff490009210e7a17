/*
 * Copyright 2026 The Nearline Authors
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *     http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package io.nearline.lxctestbed.drillrunner;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import javax.imageio.ImageIO;

/**
 * {@code timeline.png}: the job's throughput, the cache's staleness and (the cache updater) its own
 * consistent-through over a drill, one panel each, with every fault's window shaded and named. Drawn with the JDK alone (headless).
 */
final class Timeline {

    /**
     * One second of a drill's history, as history.jsonl has it; null fields where the store (or, for
     * {@code consistentThroughLagMs}, the job) did not answer.
     *
     * @param consistentThroughLagMs how far the job's own consistent-through (the oldest partition's)
     *     was behind the clock: the cache reflects the source as of that long ago, by the job's account
     */
    record Second(
            double t,
            long sent,
            Long applied,
            Long throughput,
            Long consumerLag,
            Long stalenessP99Ms,
            Long consistentThroughLagMs,
            int containers) {}

    private static final int WIDTH = 1000;
    private static final int PANEL = 190;
    private static final int LEFT = 70;
    private static final int TOP = 40;
    private static final Color FAULT = new Color(230, 120, 110, 70);

    private final Graphics2D g;
    private final List<Second> history;
    private final List<Verdict.FaultOutcome> faults;
    /** The last second drawn: the x axis runs from 0 to it. */
    private final double end;

    private Timeline(Graphics2D g, List<Second> history, List<Verdict.FaultOutcome> faults) {
        this.g = g;
        this.history = history;
        this.faults = faults;
        this.end = history.isEmpty()
                ? 1
                : Math.max(1, history.get(history.size() - 1).t());
    }

    static void write(Path png, String title, List<Second> history, List<Verdict.FaultOutcome> faults)
            throws IOException {
        System.setProperty("java.awt.headless", "true");
        boolean watermark = history.stream().anyMatch(s -> s.consistentThroughLagMs() != null);
        int panels = watermark ? 3 : 2;
        BufferedImage image = new BufferedImage(WIDTH, TOP + panels * PANEL + 70, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, image.getWidth(), image.getHeight());
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 14));
        g.drawString(title, LEFT, 22);
        Timeline timeline = new Timeline(g, history, faults);
        timeline.panel(TOP, "throughput (done per second)", Second::throughput, 1);
        if (history.stream().anyMatch(s -> s.stalenessP99Ms() != null)) {
            timeline.panel(TOP + PANEL + 20, "staleness p99 (s)", Second::stalenessP99Ms, 1000);
        } else { // the join has no per-key staleness: what it has not done yet instead
            timeline.panel(TOP + PANEL + 20, "backlog (not done yet)", Second::consumerLag, 1);
        }
        if (watermark) {
            timeline.panel(
                    TOP + 2 * PANEL + 20,
                    "consistent-through, behind the clock (s): the job's own trusted point",
                    Second::consistentThroughLagMs,
                    1000);
        }
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.setColor(Color.DARK_GRAY);
        g.drawString("seconds since the load started; shaded: fault windows", LEFT, TOP + panels * PANEL + 55);
        g.dispose();
        ImageIO.write(image, "png", png.toFile());
    }

    /** One panel at {@code y0}: the fault windows, the axes, and {@code value} (divided by {@code unit}) over time. */
    private void panel(int y0, String label, Function<Second, Long> value, double unit) {
        int w = WIDTH - LEFT - 20;
        int h = PANEL - 30;
        double max = 1;
        for (Second s : history) {
            if (value.apply(s) != null) {
                max = Math.max(max, value.apply(s) / unit);
            }
        }
        max = niceCeiling(max);
        for (Verdict.FaultOutcome f : faults) {
            if (f.applied()) {
                shade(f, y0, w, h);
            }
        }
        g.setColor(Color.GRAY);
        g.drawRect(LEFT, y0, w, h);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawString(label, LEFT, y0 - 4);
        g.drawString(String.format("%,.0f", max), 5, y0 + 10);
        g.drawString("0", 5, y0 + h);
        for (int s = 0; s <= end; s += tick(end)) {
            int x = LEFT + (int) (w * s / end);
            g.drawLine(x, y0 + h, x, y0 + h + 4);
            g.drawString(Integer.toString(s), x - 6, y0 + h + 16);
        }
        g.setColor(new Color(30, 90, 170));
        g.setStroke(new BasicStroke(1.6f));
        Integer px = null;
        Integer py = null;
        for (Second s : history) {
            Long v = value.apply(s);
            if (v == null) {
                px = null; // the store did not answer: a gap in the line
                continue;
            }
            int x = LEFT + (int) (w * s.t() / end);
            int y = y0 + h - (int) (h * Math.min(1, v / unit / max));
            if (px != null) {
                g.drawLine(px, py, x, y);
            }
            px = x;
            py = y;
        }
    }

    /** A fault's window, shaded and named, with a dashed line where it was noticed. */
    private void shade(Verdict.FaultOutcome f, int y0, int w, int h) {
        int x1 = LEFT + (int) (w * f.startSeconds() / end);
        double stop = f.endSeconds() == null ? f.startSeconds() + 1 : Math.max(f.endSeconds(), f.startSeconds() + 1);
        int x2 = LEFT + (int) (w * stop / end);
        g.setColor(FAULT);
        g.fillRect(x1, y0, Math.max(2, x2 - x1), h);
        g.setColor(new Color(150, 40, 30));
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 11));
        g.drawString(f.kind(), x1 + 3, y0 + 12);
        if (f.detectionSeconds() != null) { // when YARN or the engine noticed it
            int xd = LEFT + (int) (w * (f.startSeconds() + f.detectionSeconds()) / end);
            g.setStroke(new BasicStroke(1f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 1f, new float[] {4, 3}, 0));
            g.drawLine(xd, y0, xd, y0 + h);
            g.drawString("noticed", xd + 3, y0 + 25);
            g.setStroke(new BasicStroke(1f));
        }
    }

    private static int tick(double end) {
        for (int t : new int[] {5, 10, 20, 30, 60, 120, 300}) {
            if (end / t <= 12) {
                return t;
            }
        }
        return 600;
    }

    private static double niceCeiling(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (v <= m * p) {
                return m * p;
            }
        }
        return 10 * p;
    }
}
