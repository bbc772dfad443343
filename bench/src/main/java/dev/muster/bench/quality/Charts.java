package dev.muster.bench.quality;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

import javax.imageio.ImageIO;

/** Draws the policies' GPU allocation and queue length over time as one PNG (two panels, a line per policy). */
final class Charts {

    private static final int WIDTH = 1200;
    private static final int PANEL_HEIGHT = 360;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int TOP = 50;
    private static final int BOTTOM = 50;
    private static final Color[] COLORS = {new Color(0xD62728), new Color(0x1F77B4), new Color(0x2CA02C), new Color(0x9467BD)};

    private Charts() {
    }

    static void write(List<SimulationResult> results, String title, Path png) {
        BufferedImage image = new BufferedImage(WIDTH, 2 * PANEL_HEIGHT + TOP, BufferedImage.TYPE_INT_RGB);
        Graphics2D graphics = image.createGraphics();
        graphics.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        graphics.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        graphics.setColor(Color.WHITE);
        graphics.fillRect(0, 0, image.getWidth(), image.getHeight());
        graphics.setColor(Color.BLACK);
        graphics.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 16));
        graphics.drawString(title, LEFT, 28);
        // Up to the last sample where anything still runs or waits, and a little more.
        long end = Math.max(1, results.stream().flatMap(result -> result.samples().stream())
                .filter(sample -> sample.gpuAllocation() > 0.005 || sample.waiting() > 0)
                .mapToLong(FleetSample::time).max().orElse(1) * 21 / 20);
        panel(graphics, results, TOP, end, "GPU allocation (% of the fleet's GPUs)", sample -> sample.gpuAllocation() * 100, 100);
        double maxWaiting = results.stream().flatMap(result -> result.samples().stream()).mapToDouble(FleetSample::waiting).max().orElse(1);
        panel(graphics, results, TOP + PANEL_HEIGHT, end, "Muster jobs waiting (queued, placing, pending on a member)",
                FleetSample::waiting, Math.max(1, maxWaiting));
        graphics.dispose();
        try {
            Files.createDirectories(png.toAbsolutePath().getParent());
            ImageIO.write(image, "png", png.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + png, e);
        }
    }

    private static void panel(Graphics2D graphics, List<SimulationResult> results, int top, long end, String label,
                              ToDoubleFunction<FleetSample> value, double max) {
        int plotTop = top + 30;
        int plotHeight = PANEL_HEIGHT - 30 - BOTTOM;
        int plotWidth = WIDTH - LEFT - RIGHT;
        graphics.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        graphics.setColor(Color.BLACK);
        graphics.drawString(label, LEFT, top + 20);
        graphics.setColor(new Color(0xDDDDDD));
        for (int tick = 0; tick <= 4; tick++) {
            int y = plotTop + plotHeight - tick * plotHeight / 4;
            graphics.drawLine(LEFT, y, LEFT + plotWidth, y);
        }
        graphics.setColor(Color.BLACK);
        graphics.drawRect(LEFT, plotTop, plotWidth, plotHeight);
        for (int tick = 0; tick <= 4; tick++) {
            int y = plotTop + plotHeight - tick * plotHeight / 4;
            graphics.drawString(String.format(Locale.ROOT, "%.0f", max * tick / 4), 10, y + 4);
        }
        for (int tick = 0; tick <= 6; tick++) {
            int x = LEFT + tick * plotWidth / 6;
            graphics.drawString(String.format(Locale.ROOT, "%.1f h", end * tick / 6 / 3600.0), x - 15, plotTop + plotHeight + 18);
        }
        graphics.setStroke(new BasicStroke(1.6f));
        for (int i = 0; i < results.size(); i++) {
            SimulationResult result = results.get(i);
            graphics.setColor(COLORS[i % COLORS.length]);
            int previousX = -1;
            int previousY = -1;
            for (FleetSample sample : result.samples()) {
                if (sample.time() > end) {
                    break;
                }
                int x = LEFT + (int) (sample.time() * (double) plotWidth / end);
                int y = plotTop + plotHeight - (int) Math.round(Math.min(max, value.applyAsDouble(sample)) * plotHeight / max);
                if (previousX >= 0) {
                    graphics.drawLine(previousX, previousY, x, y);
                }
                previousX = x;
                previousY = y;
            }
            graphics.fillRect(LEFT + 10 + i * 220, plotTop + plotHeight + 28, 14, 4);
            graphics.drawString(result.policy().label(), LEFT + 30 + i * 220, plotTop + plotHeight + 34);
        }
    }
}
