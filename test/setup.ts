import { Testing } from "cdktf";

Testing.setupJest();
