export { CloudView, type CloudViewProps } from "./CloudView.js";
