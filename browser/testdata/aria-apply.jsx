// A job application built with React Aria Components (Adobe's; React 18; all from npm
// at test set-up, bundled by esbuild like an app's build): a menu, a modal dialog, a
// text field, a select (a button and a listbox in a popover), a combobox whose
// suggestions come as one types, a checkbox and two date fields typed into segment by
// segment (browser/aria_test.go). React Aria handles presses itself (usePress:
// pointer events, and a click it takes for a screen reader's when nothing says it
// came from a mouse). Nothing here submits: the submit button only counts its presses,
// shown with the form's state.
import * as React from "react";
import { createRoot } from "react-dom/client";
import {
  Button, Checkbox, ComboBox, DateField, DateInput, DateSegment, Dialog, DialogTrigger, Heading, Input, Label,
  ListBox, ListBoxItem, Menu, MenuItem, MenuTrigger, Modal, ModalOverlay, Popover, Select, SelectValue, TextField,
} from "react-aria-components";

const CITIES = ["Berlin", "Bern", "Bergen", "Madrid", "Paris"];

function App() {
  const [sort, setSort] = React.useState("Newest");
  const [phone, setPhone] = React.useState("");
  const [country, setCountry] = React.useState(null);
  const [city, setCity] = React.useState(null);
  const [agree, setAgree] = React.useState(false);
  const [start, setStart] = React.useState(null);
  const [until, setUntil] = React.useState(null);
  const [submitted, setSubmitted] = React.useState(0);
  return (
    <>
      <header>
        <TextField><Label>Search jobs</Label> <Input /></TextField>
        <MenuTrigger>
          <Button>Sort by: {sort}</Button>
          <Popover className="menu">
            <Menu onAction={(key) => setSort(String(key))}>
              <MenuItem id="Newest">Newest</MenuItem>
              <MenuItem id="Salary">Salary</MenuItem>
            </Menu>
          </Popover>
        </MenuTrigger>
      </header>
      <main>
        <h2>Senior Go Engineer</h2>
        <pre id="state">{"state " + JSON.stringify({ phone, country, city, agree, start: start ? start.toString() : null, until: until ? until.toString() : null, submitted })}</pre>
        <DialogTrigger>
          <Button>Easy Apply</Button>
          <ModalOverlay className="overlay">
            <Modal className="dialog">
              <Dialog>
                {({ close }) => (
                  <form onSubmit={(e) => { e.preventDefault(); setSubmitted((n) => n + 1); }}>
                    <Heading slot="title">Apply to Senior Go Engineer</Heading>
                    <TextField value={phone} onChange={setPhone}><Label>Mobile phone number</Label> <Input type="tel" /></TextField>
                    <Select selectedKey={country} onSelectionChange={setCountry}>
                      <Label>Country</Label>
                      <Button><SelectValue /><span aria-hidden="true">▾</span></Button>
                      <Popover className="menu">
                        <ListBox>
                          <ListBoxItem id="de">Germany</ListBoxItem>
                          <ListBoxItem id="fr">France</ListBoxItem>
                          <ListBoxItem id="es">Spain</ListBoxItem>
                        </ListBox>
                      </Popover>
                    </Select>
                    <ComboBox selectedKey={city} onSelectionChange={setCity}>
                      <Label>City</Label>
                      <div><Input /><Button aria-label="Show cities">▾</Button></div>
                      <Popover className="menu">
                        <ListBox>{CITIES.map((c) => <ListBoxItem key={c} id={c}>{c}</ListBoxItem>)}</ListBox>
                      </Popover>
                    </ComboBox>
                    <DateField value={start} onChange={setStart}>
                      <Label>Start date</Label>
                      <DateInput>{(segment) => <DateSegment segment={segment} />}</DateInput>
                    </DateField>
                    <DateField value={until} onChange={setUntil}>
                      <Label>Available until</Label>
                      <DateInput>{(segment) => <DateSegment segment={segment} />}</DateInput>
                    </DateField>
                    <Checkbox isSelected={agree} onChange={setAgree}>I agree to be contacted</Checkbox>
                    <p>
                      <Button onPress={close}>Cancel</Button>{" "}
                      <Button type="submit">Submit application</Button>
                    </p>
                  </form>
                )}
              </Dialog>
            </Modal>
          </ModalOverlay>
        </DialogTrigger>
      </main>
    </>
  );
}

document.title = "React Aria application";
createRoot(document.getElementById("root")).render(<App />);
