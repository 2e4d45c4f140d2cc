// A job application's second step built from four widely used widget libraries (React
// 18; all from npm at test set-up, bundled by esbuild): react-datepicker's calendar for
// the start date (opened on January 2027, so the test's days are fixed), downshift's
// combobox for the main skill, react-dropzone's drop area with its hidden file input
// for the résumé, and SweetAlert2's confirmation before withdrawing, which hides the
// page from assistive technology while it is open (browser/widgets_test.go). Nothing
// here submits; the state line shows what the page holds.
import * as React from "react";
import { createRoot } from "react-dom/client";
import DatePicker from "react-datepicker";
import { useDropzone } from "react-dropzone";
import Swal from "sweetalert2";
import { useCombobox } from "downshift";

const skills = ["Go", "Rust", "TypeScript", "SQL", "Kubernetes"];

function Skill({ onPick }) {
  const [items, setItems] = React.useState(skills);
  const { isOpen, getLabelProps, getInputProps, getMenuProps, getItemProps, highlightedIndex, selectedItem } = useCombobox({
    items,
    onInputValueChange: ({ inputValue }) => setItems(skills.filter((s) => s.toLowerCase().startsWith((inputValue || "").toLowerCase()))),
    onSelectedItemChange: ({ selectedItem }) => onPick(selectedItem),
  });
  return (
    <div>
      <label {...getLabelProps()}>Main skill</label>
      <input {...getInputProps()} />
      <ul {...getMenuProps()}>
        {isOpen && items.map((item, index) => (
          <li key={item} style={{ background: highlightedIndex === index ? "#bde4ff" : "" }} {...getItemProps({ item, index })}>{item}</li>
        ))}
      </ul>
    </div>
  );
}

function Resume({ onFile }) {
  const onDrop = React.useCallback((files) => files.forEach((f) => onFile(f.name + " " + f.size)), [onFile]);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop });
  return (
    <div {...getRootProps()} style={{ border: "2px dashed #888", padding: "20px" }}>
      <input {...getInputProps()} />
      <p>{isDragActive ? "Drop the files here" : "Drag your résumé here, or click to select a file"}</p>
    </div>
  );
}

function App() {
  const [start, setStart] = React.useState(null);
  const [skill, setSkill] = React.useState("");
  const [files, setFiles] = React.useState([]);
  const [withdrawn, setWithdrawn] = React.useState("no");
  const withdraw = async () => {
    const r = await Swal.fire({ title: "Withdraw your application?", text: "You cannot undo this.", icon: "warning", showCancelButton: true, confirmButtonText: "Yes, withdraw", cancelButtonText: "Keep it" });
    setWithdrawn(r.isConfirmed ? "yes" : "kept");
  };
  return (
    <main>
      <h2>Apply: Senior Go Engineer</h2>
      <label htmlFor="start">Earliest start</label>
      <DatePicker id="start" selected={start} onChange={setStart} dateFormat="yyyy-MM-dd" placeholderText="Pick a date" openToDate={new Date(2027, 0, 1)} />
      <Skill onPick={setSkill} />
      <Resume onFile={(f) => setFiles((xs) => xs.concat(f))} />
      <button type="button" onClick={withdraw}>Withdraw application</button>
      <pre id="state">{"state " + JSON.stringify({ start: start ? start.toISOString().slice(0, 10) : null, skill, files, withdrawn })}</pre>
    </main>
  );
}

document.title = "Application, step 2";
createRoot(document.getElementById("root")).render(<App />);
