// A job application's "rank your skills" list built with dnd-kit (React 18; from npm at
// test set-up, bundled by esbuild): sortable items dragged by pointer (its PointerSensor:
// pointerdown on the item, then pointermove and pointerup on the document, positions
// compared) (browser/dndkit_test.go).
import * as React from "react";
import { createRoot } from "react-dom/client";
import { DndContext, PointerSensor, KeyboardSensor, closestCenter, useSensor, useSensors } from "@dnd-kit/core";
import { SortableContext, arrayMove, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";

function Item({ id }) {
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  const style = { transform: CSS.Transform.toString(transform), transition, padding: "8px", margin: "4px 0", border: "1px solid #888", background: "#fff", width: "240px" };
  return <li ref={setNodeRef} style={style} {...attributes} {...listeners} aria-label={"Skill " + id}>{id}</li>;
}

function App() {
  const [items, setItems] = React.useState(["Go", "Rust", "TypeScript", "SQL"]);
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const onDragEnd = ({ active, over }) => {
    if (over && active.id !== over.id) setItems((xs) => arrayMove(xs, xs.indexOf(active.id), xs.indexOf(over.id)));
  };
  return (
    <main>
      <h2>Rank your skills</h2>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={items} strategy={verticalListSortingStrategy}>
          <ul style={{ listStyle: "none", padding: 0 }}>{items.map((id) => <Item key={id} id={id} />)}</ul>
        </SortableContext>
      </DndContext>
      <pre id="state">{"order " + items.join(",")}</pre>
    </main>
  );
}

document.title = "dnd-kit application";
createRoot(document.getElementById("root")).render(<App />);
