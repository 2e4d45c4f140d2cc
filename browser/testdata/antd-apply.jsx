// A job application built with Ant Design 6 (React 18; from npm at test set-up, bundled
// by esbuild like an app's build): a modal with a form's input, a select (its search
// field left empty, the choice shown under it), a multiple select (tags), a checkbox
// and buttons (browser/antd_test.go). Nothing here submits: the submit button only
// counts its presses, shown with the form's state.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { Button, Modal, Input, Select, Checkbox } from "antd";

function App() {
  const [open, setOpen] = React.useState(false);
  const [phone, setPhone] = React.useState("");
  const [city, setCity] = React.useState(undefined);
  const [skills, setSkills] = React.useState([]);
  const [agree, setAgree] = React.useState(false);
  const [submitted, setSubmitted] = React.useState(0);
  return (
    <main>
      <h2>Senior Go Engineer</h2>
      <pre id="state">{"state " + JSON.stringify({ phone, city: city || null, skills, agree, submitted })}</pre>
      <Button onClick={() => setOpen(true)}>Easy Apply</Button>
      <Modal title="Apply to Senior Go Engineer" open={open} onCancel={() => setOpen(false)} footer={[
        <Button key="cancel" onClick={() => setOpen(false)}>Cancel</Button>,
        <Button key="submit" type="primary" onClick={() => setSubmitted((n) => n + 1)}>Submit application</Button>]}>
        <p><label htmlFor="phone">Mobile phone number</label> <Input id="phone" value={phone} onChange={(e) => setPhone(e.target.value)} /></p>
        <p><label htmlFor="city">Location</label>{" "}
          <Select id="city" style={{ width: 240 }} placeholder="Choose a city" value={city} onChange={setCity}
            options={["Berlin", "London", "Paris"].map((c) => ({ value: c.toLowerCase(), label: c }))} /></p>
        <p><label htmlFor="skills">Skills</label>{" "}
          <Select id="skills" mode="multiple" style={{ width: 240 }} value={skills} onChange={setSkills}
            options={["Go", "Rust", "Python"].map((c) => ({ value: c.toLowerCase(), label: c }))} /></p>
        <p><Checkbox checked={agree} onChange={(e) => setAgree(e.target.checked)}>I agree to be contacted</Checkbox></p>
      </Modal>
    </main>
  );
}

document.title = "Ant Design application";
createRoot(document.getElementById("root")).render(<App />);
