// A job application's filters and form built with react-select 5 (React 18; from npm
// at test set-up, bundled by esbuild like an app's build): a single select (Location,
// labelled by a <label for> its input), a multiple select (Skills, chips with remove
// buttons), a creatable multiple select (Tags), and a plain text field. Nothing here
// submits: the form's state is shown as text (browser/reactselect_test.go).
import * as React from "react";
import { createRoot } from "react-dom/client";
import Select from "react-select";
import CreatableSelect from "react-select/creatable";

const cities = ["Berlin", "London", "Paris", "Remote"].map((c) => ({ value: c.toLowerCase(), label: c }));
const skills = ["Go", "Rust", "TypeScript", "Python"].map((c) => ({ value: c.toLowerCase(), label: c }));

function App() {
  const [city, setCity] = React.useState(null);
  const [picked, setPicked] = React.useState([]);
  const [tags, setTags] = React.useState([]);
  const [name, setName] = React.useState("");
  return (
    <main>
      <h2>Apply to Senior Go Engineer</h2>
      <p><label htmlFor="name">Full name</label> <input id="name" value={name} onChange={(e) => setName(e.target.value)} /></p>
      <label htmlFor="city-input">Location</label>
      <Select inputId="city-input" name="city" options={cities} value={city} onChange={setCity} isClearable placeholder="Choose a city" />
      <label htmlFor="skills-input">Skills</label>
      <Select inputId="skills-input" name="skills" options={skills} value={picked} onChange={setPicked} isMulti />
      <label htmlFor="tags-input">Tags</label>
      <CreatableSelect inputId="tags-input" isMulti value={tags} onChange={setTags} />
      <pre id="state">{"state " + JSON.stringify({ name, city: city && city.value, skills: picked.map((s) => s.value), tags: tags.map((t) => t.value) })}</pre>
    </main>
  );
}

createRoot(document.getElementById("root")).render(<App />);
