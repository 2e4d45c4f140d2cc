// A job application whose CV field is react-dropzone with noClick (React 18;
// from npm at test set-up, bundled by esbuild): the zone opens no chooser, only a
// drop attaches (its hidden file input is there but nothing clicks it). The page
// hashes the file it accepted (browser/drop_test.go).
import * as React from "react";
import { createRoot } from "react-dom/client";
import { useDropzone } from "react-dropzone";

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, "0")).join("");

function CV() {
  const [got, setGot] = React.useState("");
  const onDrop = React.useCallback(async (accepted) => {
    const parts = [];
    for (const f of accepted) {
      const sum = await crypto.subtle.digest("SHA-256", await f.arrayBuffer());
      parts.push(f.name + " " + f.size + " bytes sha256 " + hex(sum));
    }
    setGot(parts.join("; "));
  }, []);
  const { getRootProps, getInputProps, isDragActive } = useDropzone({ onDrop, noClick: true, noKeyboard: true, multiple: false });
  return (
    <section>
      <h2>Your CV</h2>
      <div {...getRootProps({ className: "cv-drop", style: { border: "2px dashed #999", padding: 24, width: 320 } })}>
        <input {...getInputProps()} />
        <span>{isDragActive ? "Release to attach" : "Drag your CV here"}</span>
      </div>
      {got && <p className="cv-file">Attached: {got}</p>}
    </section>
  );
}

createRoot(document.getElementById("root")).render(<CV />);
