package dev.muster.kubectl;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Rows printed as kubectl prints them: upper-case headers, columns padded to their widest cell, three spaces apart. */
final class TablePrinter {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    TablePrinter(List<String> headers) {
        this.headers = List.copyOf(headers);
    }

    TablePrinter row(List<String> cells) {
        rows.add(List.copyOf(cells));
        return this;
    }

    void print(PrintStream out) {
        int[] widths = new int[headers.size()];
        for (int column = 0; column < widths.length; column++) {
            widths[column] = headers.get(column).length();
            for (List<String> row : rows) {
                widths[column] = Math.max(widths[column], row.get(column).length());
            }
        }
        line(out, headers, widths);
        rows.forEach(row -> line(out, row, widths));
    }

    private static void line(PrintStream out, List<String> cells, int[] widths) {
        StringBuilder text = new StringBuilder();
        for (int column = 0; column < cells.size(); column++) {
            String cell = cells.get(column);
            text.append(cell);
            if (column < cells.size() - 1) {
                text.append(" ".repeat(widths[column] - cell.length() + 3));
            }
        }
        out.println(text);
    }
}
