// A job application built the way Tailwind UI builds one, on Headless UI 2 (React 18;
// all from npm at test set-up, bundled by esbuild like an app's build): a menu, a
// modal dialog (Headless UI makes the rest of the page inert), a field with its label,
// a listbox (its button shows the option chosen), a combobox (its field shows the
// option chosen, through displayValue), a switch and a disclosure
// (browser/headless_test.go). Nothing here submits: the submit button only counts its
// presses, shown with the form's state.
import * as React from "react";
import { createRoot } from "react-dom/client";
import { Menu, MenuButton, MenuItems, MenuItem, Dialog, DialogPanel, DialogTitle, Field, Label, Input,
  Listbox, ListboxButton, ListboxOptions, ListboxOption, Combobox, ComboboxInput, ComboboxOptions, ComboboxOption,
  Switch, Disclosure, DisclosureButton, DisclosurePanel } from "@headlessui/react";

const countries = ["Germany", "France", "Spain"];
const cities = ["Berlin", "Bern", "Bordeaux", "Madrid"];

function SortMenu() {
  const [sort, setSort] = React.useState("Newest");
  return (
    <Menu>
      <MenuButton className="button">Sort by: {sort}</MenuButton>
      <MenuItems anchor="bottom start" className="menu">
        <MenuItem><button className="item" onClick={() => setSort("Newest")}>Newest</button></MenuItem>
        <MenuItem><button className="item" onClick={() => setSort("Salary")}>Salary</button></MenuItem>
      </MenuItems>
    </Menu>
  );
}

function App() {
  const [open, setOpen] = React.useState(false);
  const [phone, setPhone] = React.useState("");
  const [country, setCountry] = React.useState(null);
  const [city, setCity] = React.useState(null);
  const [query, setQuery] = React.useState("");
  const [remote, setRemote] = React.useState(false);
  const [submitted, setSubmitted] = React.useState(0);
  const shown = query === "" ? cities : cities.filter((c) => c.toLowerCase().includes(query.toLowerCase()));
  return (
    <>
      <header>
        <label htmlFor="search">Search jobs</label> <input id="search" />
        <SortMenu />
      </header>
      <main>
        <h2>Senior Go Engineer</h2>
        <Disclosure>
          <DisclosureButton className="button">About the team</DisclosureButton>
          <DisclosurePanel>We build robots. <a href="#team">Meet the team</a></DisclosurePanel>
        </Disclosure>
        <pre id="state">{"state " + JSON.stringify({ phone, country, city, remote, submitted })}</pre>
        <button type="button" className="button" onClick={() => setOpen(true)}>Easy Apply</button>
        <Dialog open={open} onClose={() => setOpen(false)}>
          <div className="overlay" aria-hidden="true" />
          <DialogPanel className="dialog">
            <DialogTitle>Apply to Senior Go Engineer</DialogTitle>
            <form onSubmit={(e) => { e.preventDefault(); setSubmitted((n) => n + 1); }}>
              <Field><Label>Mobile phone number</Label> <Input type="tel" value={phone} onChange={(e) => setPhone(e.target.value)} /></Field>
              <Field><Label>Country</Label>{" "}
                <Listbox value={country} onChange={setCountry}>
                  <ListboxButton className="button">{country || "Select a country"}</ListboxButton>
                  <ListboxOptions anchor="bottom" className="menu">
                    {countries.map((c) => <ListboxOption key={c} value={c} className="item">{c}</ListboxOption>)}
                  </ListboxOptions>
                </Listbox>
              </Field>
              <Field><Label>City</Label>{" "}
                <Combobox value={city} onChange={setCity} onClose={() => setQuery("")}>
                  <ComboboxInput displayValue={(c) => c || ""} onChange={(e) => setQuery(e.target.value)} />
                  <ComboboxOptions anchor="bottom" className="menu">
                    {shown.map((c) => <ComboboxOption key={c} value={c} className="item">{c}</ComboboxOption>)}
                  </ComboboxOptions>
                </Combobox>
              </Field>
              <Field><Switch checked={remote} onChange={setRemote} className="box" /> <Label>Remote only</Label></Field>
              <p>
                <button type="button" className="button" onClick={() => setOpen(false)}>Cancel</button>{" "}
                <button type="submit" className="button">Submit application</button>
              </p>
            </form>
          </DialogPanel>
        </Dialog>
      </main>
    </>
  );
}

document.title = "Headless UI application";
createRoot(document.getElementById("root")).render(<App />);
