package dev.muster.kubectl;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import dev.muster.model.json.Manifests;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** What {@code -o} asks for, as kubectl's printers: a table, a wider one, JSON, YAML, or {@code resource/name} lines. */
enum Output {
    TABLE(null), WIDE("wide"), JSON("json"), YAML("yaml"), NAME("name");

    private static final ObjectMapper PRETTY_JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String flag;

    Output(String flag) {
        this.flag = flag;
    }

    /**
     * The format {@code -o} names, among those the command prints; anything else is a usage error worded as kubectl's.
     */
    static Output of(String value, CommandSpec command, Output... allowed) {
        for (Output output : allowed) {
            if (output.flag == null ? value == null : output.flag.equals(value)) {
                return output;
            }
        }
        List<String> names = new ArrayList<>();
        for (Output output : allowed) {
            if (output.flag != null) {
                names.add(output.flag);
            }
        }
        throw new ParameterException(command.commandLine(), "unable to match a printer suitable for the output format \"" + value
                + "\", allowed formats are: " + String.join(",", names));
    }

    boolean isData() {
        return this == JSON || this == YAML;
    }

    /** JSON indented as kubectl prints it, or YAML with strings that look like numbers quoted, so it can be applied again. */
    String data(Object value) {
        if (this == YAML) {
            return Manifests.toYaml(value);
        }
        try {
            return PRETTY_JSON.writeValueAsString(PRETTY_JSON.readTree(Manifests.toJson(value))) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("cannot print JSON", e);
        }
    }

    /**
     * Rows in this format: as data, as {@code resource/name} lines (each once), or as a table with a NAMESPACE column
     * first across namespaces and the wide columns last when asked. False when there was nothing to print as a table.
     */
    <T> boolean rows(Terminal terminal, List<T> rows, Columns<T> columns, boolean allNamespaces) {
        if (isData()) {
            terminal.out().print(data(rows));
            return true;
        }
        if (this == NAME) {
            rows.stream().map(columns.name()).distinct().forEach(terminal.out()::println);
            return true;
        }
        if (rows.isEmpty()) {
            return false;
        }
        List<String> headers = new ArrayList<>(columns.headers());
        if (this == WIDE) {
            headers.addAll(columns.wideHeaders());
        }
        if (allNamespaces) {
            headers.add(0, "NAMESPACE");
        }
        TablePrinter table = new TablePrinter(headers);
        for (T row : rows) {
            List<String> line = new ArrayList<>(columns.cells().apply(row));
            if (this == WIDE) {
                line.addAll(columns.wideCells().apply(row));
            }
            if (allNamespaces) {
                line.add(0, columns.namespace().apply(row));
            }
            table.row(line);
        }
        table.print(terminal.out());
        return true;
    }

    /** How one kind of row prints. */
    record Columns<T>(List<String> headers, Function<T, List<String>> cells, List<String> wideHeaders, Function<T, List<String>> wideCells,
                      Function<T, String> namespace, Function<T, String> name) {
    }
}
