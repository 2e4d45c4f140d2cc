// A job board as production React apps are built: div soup with onClick (React 18
// listens at its root; the only listener on a node is the no-op onclick it sets on
// every element with an onClick, Mobile Safari's click trap), some targets styled with
// cursor: pointer and some not, a star icon named only by its title, no ARIA. The page
// shows its own state (filter, saved, applied) (browser/targets_test.go).
import * as React from "react";
import { createRoot } from "react-dom/client";

const JOBS = [
  { id: 1, title: "Senior Go Engineer", company: "Acme Corp", remote: true },
  { id: 2, title: "Frontend Developer", company: "Globex", remote: false },
  { id: 3, title: "Site Reliability Engineer", company: "Initech", remote: true },
];

function App() {
  const [filter, setFilter] = React.useState("All");
  const [open, setOpen] = React.useState(null);
  const [saved, setSaved] = React.useState([]);
  const [applied, setApplied] = React.useState("");
  const shown = JOBS.filter((j) => filter === "All" || (filter === "Remote") === j.remote);
  const job = JOBS.find((j) => j.id === open);
  return (
    <div className="page">
      <div className="chips">
        {["All", "Remote", "On site"].map((f) => (
          <span key={f} className={"chip" + (f === filter ? " on" : "")} onClick={() => setFilter(f)}>{f}</span>
        ))}
      </div>
      <div className="list">
        {shown.map((j) => (
          <div key={j.id} className="card" onClick={() => setOpen(j.id)}>
            <div className="title">{j.title}</div>
            <div className="company">{j.company}</div>
            <i className="star" title={saved.includes(j.id) ? "Unsave job" : "Save job"}
              onClick={(e) => { e.stopPropagation(); setSaved((s) => s.includes(j.id) ? s.filter((x) => x !== j.id) : s.concat(j.id)); }}>
              {saved.includes(j.id) ? "★" : "☆"}
            </i>
          </div>
        ))}
      </div>
      {job && (
        <div className="detail">
          <div className="detail-title">{job.title} at {job.company}</div>
          <div className="apply" onClick={() => setApplied(job.title)}>Apply now</div>
        </div>
      )}
      <div className="state">filter {filter}; saved {saved.length}; applied {applied || "none"}</div>
    </div>
  );
}

createRoot(document.getElementById("root")).render(<App />);
