package dev.muster.kubectl;

import java.util.Iterator;
import java.util.List;

/** A fixed list of values picocli offers when completing a parameter; each list is a subclass, as picocli names a class. */
abstract class Candidates implements Iterable<String> {

    private final List<String> values;

    Candidates(String... values) {
        this.values = List.of(values);
    }

    @Override
    public Iterator<String> iterator() {
        return values.iterator();
    }
}
